package builtin

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// tagInfo describes one capability tag of the shared vocabulary: the role
// a person with it plays, the name of the gap when nobody has it, and the
// Chinese and English keywords that reveal it in free text.
type tagInfo struct {
	tag      string
	role     string   // 角色名 in a proposal
	keywords []string // lower-case; ASCII ones match whole words only
}

// vocabulary is the shared capability-tag vocabulary, in a fixed order.
var vocabulary = []tagInfo{
	{"场地提供", "场地提供者", []string{"轰趴", "campsite", "campground", "conference center", "conference centre", "convention center", "convention centre", "need a restaurant", "find a restaurant", "recommend a restaurant", "需要摊位", "租摊位", "书店", "音乐厅", "剧院", "缺个地方", "缺一个地方", "缺地方", "要个地方", "找地方", "a bar that", "a bar for", "that can host", "bar that can host", "somewhere quiet", "somewhere for", "somewhere with", "a hotel for", "book a hotel", "高尔夫球场", "a restaurant for", "restaurant booking", "book a restaurant", "篮球场", "足球场", "羽毛球场", "网球场", "体育馆", "会所", "basketball court", "tennis court", "badminton court", "football pitch", "soccer field", "football field", "sports field", "gym", "theater", "theatre", "warehouse", "a location", "a place for", "studio", "摄影棚", "电脑机房", "一个机房", "地儿", "租个厅", "营地", "酒店宴会厅", "酒店会议室", "咖啡馆", "咖啡厅", "展位", "包厢", "录音棚", "recording studio", "cabin", "villa", "resort", "茶室", "活动室", "场地", "会议室", "会场", "场所", "礼堂", "报告厅", "办公空间", "活动空间", "借个地方", "找个地方",
		"宴会厅", "多功能厅", "展厅", "场馆", "容纳", "能坐下", "坐得下", "开会的地方", "教室", "包场", "露台", "包间", "classroom", "rooftop", "booth", "stall", "lawn", "event space", "somewhere to host", "somewhere to hold", "place to host", "place to hold",
		"venue", "venues", "space", "meeting room", "conference room", "hall", "room", "ballroom", "auditorium"}},
	{"演讲嘉宾", "演讲嘉宾", []string{"storyteller", "storytellers", "people to present", "person to present", "someone to present", "somebody to present", "folks to present", "来做报告", "来做个报告", "来做一场报告", "做一场报告", "作报告", "讲几句话", "讲几句", "讲讲经验", "讲讲职业", "讲讲心得", "前辈讲讲", "people to give talks", "people to give a talk", "speakers needed", "people to speak", "person to speak", "folks to speak", "上台讲", "开幕致辞", "致辞嘉宾", "say a few words", "opening remarks", "opening speech", "welcome speech", "讲绘本", "给孩子们讲故事", "给孩子讲故事", "故事老师", "代表发言", "上台发言", "industry veteran", "industry veterans", "industry expert", "industry experts", "行业专家", "教授", "学者", "professor", "professors", "presenter", "presenters", "guest lecturer", "嘉宾", "演讲", "讲者", "讲师", "分享人", "分享者", "讲座", "主讲", "大咖", "大牛", "讲课", "workshop leader", "someone to speak", "fireside chat", "panel of experts", "给大家讲", "授课", "lecturer", "lecturers", "instructor", "speaker", "speakers", "talk", "talks",
		"keynote", "lecture", "panelist", "panelists", "guest speaker"}},
	{"活动策划", "活动策划", []string{"guest list", "guestlist", "rsvps", "stage manager", "操办", "event plan", "负责整场活动", "活动的执行", "event producer", "event production", "events company", "event company", "event agency", "events agency", "活动方案", "张罗", "活动的流程", "负责整个活动", "run of show", "run the show", "现场执行", "行程规划", "行程安排", "team games", "team-building activities", "team building activities", "破冰游戏", "团建游戏", "活动公司", "活动执行公司", "后勤", "help us plan", "help me plan", "help plan", "someone to plan", "somebody to plan", "anyone to plan", "签到流程", "嘉宾名单", "event management", "event manager", "event managers", "帮忙组织", "统筹", "活动执行", "执行团队", "策划", "组织活动", "活动流程", "议程", "event planner", "planner", "planning", "organizing", "organising", "策展", "场控", "婚庆", "会务", "curator", "curators", "coordinator", "coordinators", "event coordinator", "organizer", "organiser", "agenda"}},
	{"主持", "主持人", []string{"拿话筒", "拿麦", "带节奏", "commentate", "commentating", "pair of hosts", "tv presenter", "tv host", "lead discussions", "lead the discussion", "lead a discussion", "facilitate", "带讨论", "party host", "event host", "lead the q&a", "run the q&a", "moderate the q&a", "q&a host", "discussion leader", "discussion host", "串场", "控场", "播音员", "主持人", "主持", "司仪", "解说", "报幕", "master of ceremonies", "someone to host", "announcer", "compère", "compere", "quizmaster", "caster", "casters", "shoutcaster", "commentator", "commentators", "mc", "emcee", "moderator", "moderate", "a host", "the host", "an mc", "an emcee", "facilitator"}},
	{"摄影", "摄影师", []string{"航拍", "aerial photography", "aerial photos", "aerial shots", "drone shots", "drone photography", "drone photos", "修片", "shooter", "event coverage", "photo coverage", "photographed", "pics", "photoshoot", "photo shoot", "snaps", "拍下来", "photo editing", "photo editor", "photo booth", "photobooth", "photog", "photogs", "camera", "拍照", "拍摄", "摄影", "照片", "相片", "跟拍", "合影", "形象照", "证件照", "写真", "拍一组", "产品图", "商品图", "宣传照", "照相", "修图", "candid shots", "candids", "retouching", "product shots", "food photographer", "food photography", "photographer", "photographers", "photography", "photo", "photos", "pictures", "headshot", "headshots", "portrait", "portraits"}},
	{"摄像", "摄像师", []string{"video walkthrough", "walkthrough video", "video tour", "录个像", "跟拍摄像", "video shooter", "拍vlog", "拍个vlog", "拍一个vlog", "拍一条vlog", "film a vlog", "shoot a vlog", "跟拍视频", "behind the camera", "production company", "video production", "影视制作公司", "全程记录", "影像记录", "拍广告", "拍一支广告", "广告片", "photo and video", "photos and videos", "film director", "video director", "recorded", "录课", "录网课", "录制课程", "video crew", "video team", "filming crew", "花絮", "拍花絮", "mv", "拍mv", "music video", "看房视频", "vr看房", "拍视频", "拍个视频", "拍条视频", "拍一条视频", "拍一个视频", "视频拍摄", "拍摄视频", "导演", "摄像", "录像", "录制", "录下来", "录视频", "video of the event", "video coverage", "录一段", "拍一段", "拍段视频", "录个视频", "camera crew", "camera operator", "cameraman", "camera person", "拍视频", "视频拍摄", "footage", "videographer", "video recording", "filming", "film", "record"}},
	{"视频剪辑", "视频剪辑师", []string{"照片视频", "相册视频", "电子相册", "片头片尾", "片尾", "slideshow", "slideshow video", "预告片", "讲解视频", "cut this footage", "cut our footage", "cut footage", "launch video", "product video", "explainer video", "brand video", "event video", "company video", "intro video", "demo video", "videos edited", "video edited", "someone to cut", "to cut it", "cut the footage", "edited into", "剪映", "premiere", "final cut", "capcut", "aftermovie", "after movie", "montage", "预热视频", "产品介绍视频", "介绍视频", "品牌片", "剪成", "纪念视频", "回顾视频", "宣传视频", "字幕员", "字幕组", "做视频", "剪出来", "音效", "音效设计", "混剪", "特效", "motion graphics", "highlights", "audio editing", "audio editor", "podcast editing", "podcast editor", "剪辑师", "editor", "editors", "剪辑", "后期", "剪视频", "短视频", "视频剪", "精彩集锦", "短片", "宣传片", "highlight reel", "video editing", "video editor", "editing", "vlog", "trailer", "trailers", "game trailer", "recap video", "剪音频", "音频剪辑", "音频后期", "剪一个", "剪一段", "剪个", "开场视频", "剪片", "做个视频", "视频制作", "加字幕", "edited video", "sizzle reel", "short video", "recap", "剪一下", "cut this video", "cut the video", "cut our video", "调色", "配乐", "post-production", "color grading", "reels", "motion designer", "animator", "animators", "highlight video", "动画", "animation", "motion graphics",
		"short film", "promo video", "promotional video", "video ad", "subtitles", "captions"}},
	{"直播", "直播技术支持", []string{"播出去", "同步播出", "线上同步", "同步播", "在线看", "云观看", "watch online", "watch remotely", "tune in online", "tune in remotely", "实时看", "实时观看", "remote attendees", "online attendees", "virtual attendees", "remote audience", "online audience", "watch live", "watch it live", "线上观众", "stream it", "stream live", "stream producer", "stream producers", "streamed", "live-streamed", "go live", "going live", "live on youtube", "live on bilibili", "live on douyin", "live on wechat", "live on zoom", "hybrid setup", "hybrid event", "livestreaming", "live streaming", "stream director", "broadcast director", "转播", "stream operator", "stream operators", "stream tech", "直播", "推流", "导播", "stream setup", "webcast", "streamed online", "线上转播", "livestream", "live stream", "streaming", "broadcast"}},
	{"平面设计", "平面设计师", []string{"主kv", "请柬", "喜帖", "menu board", "booth designer", "booth designers", "booth design", "graphic artist", "graphic artists", "摊位设计", "ppt太丑", "ppt不好看", "产品包装", "包装盒", "礼品包装", "can draw", "who draws", "ppt高手", "做ppt的", "课件", "typesetter", "typesetting", "导视设计", "导视系统", "导视", "美化一下ppt", "美术编辑", "t-shirt design", "merch design", "visual identity", "展台设计", "设计ppt", "设计一套ppt", "设计一份ppt", "ppt设计", "ppt美化", "美化ppt", "ppt模板", "live sketching", "social media designer", "social media design", "graphic recorder", "graphic recording", "sketchnotes", "sketchnote", "展位设计", "pixel artist", "pixel artists", "详情页", "主图", "表情包", "做ppt", "做个ppt", "做一份ppt", "做一套ppt", "杯套", "路演ppt", "cd sleeve", "album artwork", "restaurant menu", "menu redesign", "插画家", "美编", "平面设计师", "画画", "楼书设计", "门票设计", "美术外包", "游戏美术", "美术设计", "cover designer", "cover design", "cover art", "book cover", "album cover", "sign design", "storefront sign", "门头设计", "海报", "平面设计", "logo", "视觉设计", "宣传图", "主视觉", "店招", "门头", "vi", "signage", "signboard", "插画师", "插图", "排版", "封面", "详情页设计", "主图设计", "菜单设计", "包装设计", "设计包装", "礼盒设计", "物料设计", "kv设计", "graphics", "banner design", "social media graphics", "brochure design", "名片", "邀请函设计", "画册设计", "标志设计", "business cards", "invitation design", "flyer design", "美工", "art director", "packaging design", "packaging", "pixel art", "game art", "artwork", "menu design", "品牌手册", "吉祥物", "brand guide", "brand guidelines", "style guide", "brand identity", "mascot", "deck", "演示文稿", "poster", "posters", "graphic design", "graphic designer", "illustrator", "illustration", "layout", "branding", "album cover", "cover art", "slides", "slide deck", "pitch deck"}},
	{"UI设计", "UI设计师", []string{"做个用户访谈", "帮忙做用户访谈", "可用性测试", "app界面", "网站界面", "小程序界面", "交互", "ux研究员", "用户研究员", "设计师", "首页设计", "页面设计", "wireframes", "app设计", "mockups", "mockup", "design system", "app screens", "screen design", "wireframe", "prototype", "prototypes", "app design", "用户调研", "user interviews", "user research", "usability testing", "网页设计", "web designer", "web design", "ui", "ux", "界面", "交互设计", "原型", "用户体验", "ux researcher", "figma", "ui设计", "designer"}},
	{"前端开发", "前端工程师", []string{"online shop", "webshop", "web shop", "checkout", "chrome extension", "browser extension", "浏览器插件", "插件开发", "bug", "bugs", "修bug", "bug fixes", "coder", "coders", "who codes", "can code", "react", "vue", "angular", "flutter", "react native", "wordpress", "wix", "squarespace", "web app", "活动页", "booking form", "signup form", "sign-up form", "online form", "dev", "devs", "筹款页面", "活动页面", "报名页面", "h5页面", "ios开发", "安卓开发", "ios", "android", "点餐系统", "点餐小程序", "数据大屏", "可视化大屏", "mini program", "mini programs", "miniprogram", "wechat mini program", "前后端", "写代码", "careers page", "career page", "官网", "前端", "网站", "网页", "小程序", "h5", "app", "开发", "程序员", "website", "web", "frontend", "front-end", "developer", "developers", "mobile app", "web page", "webpage", "网店", "码农", "落地页", "landing page", "online store", "shopify", "booking page", "signup page", "sign-up page", "checkout page"}},
	{"后端开发", "后端工程师", []string{"stripe", "ci/cd", "ci pipeline", "cloud migration", "迁到云上", "上云", "云迁移", "checkout", "cto", "技术合伙人", "technical co-founder", "technical cofounder", "bug", "bugs", "修bug", "bug fixes", "coder", "coders", "who codes", "can code", "售票系统", "票务系统", "node.js", "nodejs", "django", "php", "java", "ruby on rails", "etl", "支付功能", "支付接口", "payment integration", "payment gateway", "dev", "devs", "python developer", "python developers", "python dev", "golang", "java developer", "java开发", "python开发", "internal tool", "internal tools", "crm", "scrape", "scraper", "scraping", "web scraping", "前后端", "预约系统", "报名系统", "booking system", "reservation system", "运维", "后端", "服务器", "数据库", "爬虫", "服务端", "integration", "integrations", "接口", "网站", "码农", "devops", "sre", "app", "开发", "程序员", "website", "backend", "back-end", "server", "database", "api", "developer", "developers"}},
	{"AI研究", "AI技术顾问", []string{"pytorch", "tensorflow", "接入大模型", "ai expert", "ai specialist", "ai advisor", "ai专家", "人工智能专家", "recommendation engine", "recommender", "识别模型", "检测模型", "微调", "ai工程师", "人工智能工程师", "机器学习工程师", "大模型工程师", "大模型算法", "分类模型", "预测模型", "推荐模型", "classifier", "classifiers", "train a model", "predictive model", "懂ai", "ai客服", "prompt engineer", "prompt engineering", "fine-tune", "fine tune", "language model", "language models", "ai agent", "ai agents", "问答机器人", "懂大模型", "rag", "检索增强", "知识图谱", "recommendation system", "算法", "机器学习", "深度学习", "模型训练", "ai技术顾问", "ai顾问", "人工智能顾问", "ai engineer", "ai consultant", "llm", "llms", "训练模型", "训练个模型", "训练一个模型", "chatbot", "ai model", "computer vision", "nlp", "ai研究", "人工智能研究", "研究员", "machine learning", "deep learning", "researcher", "ml"}},
	{"数据分析", "数据分析师", []string{"data cleaning", "data cleaned", "clean the data", "clean up the data", "clean up our data", "做个分析", "做一下分析", "做一个分析", "做一份分析", "建模", "建个模型", "玩excel", "分析问卷", "为什么流失", "dig into why", "调研问卷", "分析结果", "churn", "churning", "churned", "numbers person", "numbers guy", "用户数据", "销售数据", "运营数据", "经营数据", "业务数据", "look at our numbers", "go through our numbers", "excel whiz", "good with excel", "擅长excel", "excel高手", "会excel", "懂excel", "精通excel", "market research", "market study", "excel wizard", "spreadsheet", "spreadsheets", "分析报告", "数据透视表", "透视表", "pivot table", "pivot tables", "懂数据", "行业研究", "研究报告", "analyze", "analyse", "analyzing", "analysing", "做分析", "数据专员", "statistical modelling", "statistical modeling", "statistical analysis", "清洗数据", "清洗问卷", "问卷数据", "做数据", "数据看板", "看板", "用户画像", "问卷设计", "埋点", "bi", "a/b测试", "a/b test", "a/b testing", "数据分析", "分析师", "市场调研", "数据可视化", "统计", "报表", "分析数据", "后台数据", "看看数据", "数据复盘", "分析原因", "分析下原因", "分析一下原因", "问卷分析", "数据清洗", "spss", "stata", "sql", "reporting", "用户流失", "流失率", "留存率", "数据报告", "调研分析", "数据整理", "data crunching", "excel expert", "跑数据", "跑一下数据", "市场调查", "kpi", "kpis", "图表", "charts", "infographic", "infographics", "crunch",
		"data analysis", "data analyst", "analyst", "statistician", "data scientist", "data science", "analytics", "dashboard", "statistics", "metrics", "survey", "look at the data", "look at our data"}},
	{"产品经理", "产品经理", []string{"理需求", "理一下需求", "理清需求", "排优先级", "路线图", "what to build", "产品负责人", "产品专员", "own the product", "product owner", "产品助理", "竞品分析", "产品顾问", "产品经理", "产品规划", "需求文档", "懂产品", "需求分析", "需求梳理", "product lead", "product management", "产品需求", "产品方案", "product strategy", "roadmap", "梳理需求", "mvp", "产品设计", "product manager", "prd", "pm"}},
	{"餐饮服务", "餐饮供应商", []string{"juice", "smoothies", "open bar", "cocktail bar", "ice cream", "bbq", "barbecue", "hot pot", "noodles", "sandwiches", "sushi", "dim sum", "奶茶", "甜点", "茶水", "some tea", "tea and coffee", "coffee and tea", "来点茶点", "准备茶点", "准备点茶点", "一些茶点", "酒席", "f&b", "food and beverage", "food & beverage", "fruit", "pastries", "pastry", "fruit platter", "feed", "水果", "catered", "瓶装水", "brunch", "breakfast", "夜宵", "宵夜", "消夜", "百家宴", "宴席", "寿宴", "喜宴", "坝坝宴", "cook", "baker", "bake", "cookies", "cupcakes", "酒会", "食材", "晚宴", "啤酒", "tea break", "tea breaks", "coffee break", "coffee breaks", "烘焙师", "food truck", "food trucks", "bottled water", "便当", "wine", "beer", "cocktails", "餐饮", "厨师", "厨子", "做饭", "caterer", "caterers", "chef", "吃", "餐", "饭", "茶歇", "零食", "饮料", "咖啡", "酒水", "披萨", "食物", "点心", "调酒师", "调酒", "面点", "外卖", "饮品", "下午茶", "canapés", "canapes", "finger food", "hors d'oeuvres", "做一桌", "一桌菜", "做菜", "cook for", "水果", "宴席", "buffet", "refreshments", "breakfast", "baker", "bakers", "barista", "baristas", "蛋糕", "甜品", "cake", "cakes", "dessert", "desserts",
		"服务员", "bartender", "waiter", "waitstaff", "catering", "food", "snacks", "drinks", "lunch", "dinner", "coffee", "pizza", "meal", "meals"}},
	{"翻译", "翻译", []string{"三语", "多语", "native speakers", "native speaker", "语言不通", "interpret", "外国客户", "外国客人", "外国朋友", "老外", "成英文", "成中文", "成日文", "成日语", "成韩语", "localized", "localised", "交传", "交替传译", "同声传译", "翻译", "翻成", "译成", "同传", "口译", "外宾", "双语", "本地化", "英文版", "翻一下", "笔译", "改成英文", "英文简历", "中译英", "英译中", "subtitling", "localization", "localisation", "localize", "interpretation", "interpreting", "simultaneous interpretation", "translator", "translation", "translate", "translating", "interpreter", "bilingual"}},
	{"音响设备", "音响设备支持", []string{"rent speakers", "rent us speakers", "rent some speakers", "speaker rental", "portable speaker", "bluetooth speaker", "录音", "set up sound", "setting up sound", "for the music", "管音乐", "play music", "playing music", "background music", "功放", "耳返", "追光", "in charge of sound", "on sound", "run sound", "running sound", "do sound", "doing sound", "run the lights", "running the lights", "声音效果", "音响效果", "音质", "amplification", "a pa", "vj", "展台搭建", "搭建展台", "搭展台", "混音师", "混音", "录音师", "音频工程师", "led大屏", "screens", "projection screen", "interpretation equipment", "interpreting equipment", "translation headsets", "interpretation booth", "big screen", "大屏幕", "wireless headphones", "silent disco headphones", "led wall", "led lights", "led panel", "同传设备", "翻译耳机", "stage designer", "stage design", "舞美", "舞台搭建", "stage setup", "同声传译设备", "音响", "麦克风", "话筒", "投影", "灯光", "设备", "音箱", "audio", "sound system", "microphone", "microphones",
		"mic", "pa system", "public address", "调音", "loudspeaker", "speaker system", "sound equipment", "sound gear",
		"speakers and mics", "speakers and microphones", "mics and speakers", "microphones and speakers", "projector", "av equipment", "av team", "av crew", "lighting", "lights", "dj", "音控", "扩音", "av", "set up the sound", "sound setup", "soundcheck", "sound check", "led屏", "led screen", "roadie", "roadies", "lighting designer", "mixer", "mixing desk", "mixing console", "sound desk"}},
	{"市场推广", "推广负责人", []string{"product hunt", "拉人", "裂变", "网店运营", "社交媒体", "ads", "run ads", "paid ads", "小红书运营", "运营小红书", "做小红书", "抖音运营", "运营抖音", "媒体来报道", "几家媒体", "跨境电商运营", "pr团队", "pr公司", "做pr的", "更多年轻人知道", "更多人了解", "more people to show up", "more people to come", "more attendees", "boost attendance", "increase attendance", "搞运营的", "做运营的", "找一家广告公司", "ad agency", "advertising agency", "agency to run our ads", "社群运营", "运营社群", "内容运营", "涨粉", "增粉", "引流", "投广告", "socials", "social accounts", "ads management", "ad management", "manage our ads", "ad campaigns", "增长黑客", "品牌经理", "品牌推广", "推一推", "推一波", "亚马逊广告", "amazon ads", "广告投放", "media coverage", "press coverage", "媒体报道", "媒体邀约", "邀请媒体", "media outreach", "more sign-ups", "more signups", "more registrations", "管理社群", "社群管理", "社媒运营", "社媒", "朋友圈广告", "投放广告", "信息流广告", "联系媒体", "媒体发布", "xiaohongshu", "rednote", "懂增长", "增长运营", "growth hacker", "growth marketer", "pr person", "pr firm", "pr manager", "pr specialist", "电商运营", "店铺运营", "内容运营", "社区运营", "达人", "探店", "私域", "公关", "pr agency", "publicist", "新媒体", "推广", "宣传", "营销", "招募", "引流", "曝光", "公众号", "广告投放", "媒体报道", "代运营", "拉新", "宣发", "推一下", "帮忙推", "public relations", "ad campaign", "让更多人知道", "知名度", "more customers", "attract customers", "customer acquisition", "地推", "运营专员", "新媒体运营", "社群运营", "网红", "kol", "influencer", "influencers", "content creator", "community manager", "promotion", "marketing", "seo", "sem", "google ads", "advertising", "wechat", "weibo", "douyin", "tiktok", "instagram", "facebook", "linkedin", "promote", "publicity", "advertise", "social media", "outreach", "the word out", "spread the word"}},
	{"文案写作", "文案撰写", []string{"会写的人", "能写的人", "写内容", "博客", "誓词", "致辞稿", "ux writer", "ux writing", "microcopy", "ghostwriter", "ghostwriting", "代笔", "letter", "with words", "文笔好", "文笔", "announcement", "write up", "文案策划", "transcribed", "记录员", "做记录的", "一个记录的", "写手", "一份bp", "wordsmith", "做内容", "内容创作", "写东西", "写文字", "listing copy", "product copy", "ad copy", "who writes well", "a good writer", "who can write", "校对英文", "校对中文", "校对稿件", "proofreading", "slogan", "口号", "广告语", "标语", "改bp", "写bp", "商业bp", "写报告", "撰写报告", "report writing", "write the report", "write a report", "岗位jd", "写jd", "招聘jd", "job description", "job post", "job ad", "job listing", "招聘文案", "起名", "起个名字", "取名", "详情页文案", "写剧本", "写个剧本", "剧本改编", "直播脚本", "视频脚本", "写脚本", "产品介绍", "商业计划书", "business plan", "manuscript", "edit the text", "minutes taken", "minute taker", "品牌故事", "brand story", "会议记录", "小编", "主笔", "live captions", "live captioning", "captioner", "real-time captions", "招聘启事", "职位描述", "job ads", "job ad", "job posting", "job postings", "job description", "job descriptions", "访谈记录", "官网文案", "script", "scripts", "scriptwriter", "screenwriter", "编剧", "文案", "写作", "文章", "推文", "新闻稿", "润色", "约稿", "编辑", "笔头", "写稿", "撰稿", "写公众号", "product description", "product descriptions", "员工手册", "新闻通稿", "会议纪要", "整理成文字", "录音整理", "转写", "transcript", "transcripts", "transcription", "transcribe", "速记", "演讲稿", "软文", "活动总结", "website copy", "web copy", "write a post", "write posts", "newsletter", "newsletters", "stenographer", "transcriber", "take notes", "note taker", "notetaker", "纪要", "说明书", "handbook", "press kit", "meeting minutes", "take minutes", "user manual", "instruction manual", "copywriting", "copy editor", "proofread", "proofreading", "copywriter", "writing", "article", "articles", "press release", "blog"}},
	{"法律咨询", "法律顾问", []string{"sponsorship contract", "sponsorship agreement", "赞助合同", "赞助协议", "合作协议", "这份协议", "协议有没有", "paralegal", "律所", "律师事务所", "labor law", "labour law", "employment law", "term sheet", "专利", "商标", "patent", "patents", "股权", "股份", "仲裁", "劳动纠纷", "维权", "官司", "起诉", "诉讼", "lawsuit", "litigation", "arbitration", "legal dispute", "律师", "法务", "法律", "合同", "合规", "知识产权", "条款", "商标注册", "attorney", "attorneys", "solicitor", "legal counsel", "trademark", "agreement", "agreements", "nda", "legal", "lawyer", "contract", "contracts", "compliance"}},
	{"财务", "财务顾问", []string{"budget planning", "build a budget", "building a budget", "create a budget", "draw up a budget", "make a budget", "编预算", "列预算", "做个预算", "报一下税", "交税", "报个税", "for the books", "keep the books", "keeping the books", "花了多少钱", "花多少钱", "算算账", "管账", "理账", "算成本", "算一下成本", "成本核算", "预算表", "做预算", "budget sheet", "工资表", "算工资", "发工资", "工资", "开发票", "开票", "invoicing", "financial model", "financial modelling", "financial modeling", "financial projections", "财务模型", "expenses", "expense report", "expense reports", "reimbursement", "reimbursements", "财务", "记账", "报销", "税务", "会计", "发票", "财税", "报税", "审计", "懂税", "个税", "节税", "账目", "做账", "查账", "对账", "出纳", "报账", "cpa", "financial statements", "算账", "算一下账", "do our books", "bookkeeper", "财报", "payroll", "finance", "accounting", "accountant", "tax", "cfo", "financial advisor", "financial planning", "bookkeeping", "invoice", "financial audit", "auditor", "auditors"}},
	{"志愿者", "现场志愿者", []string{"礼仪小姐", "热心人", "热心肠", "spare a few hours", "spare some time", "spare an afternoon", "spare a morning", "lift heavy", "heavy lifting", "carry boxes", "booth helpers", "booth helper", "help with registration", "help with check-in", "for the door", "管门口", "守门", "负责接待", "接待人员", "前台接待", "handling registration", "run registration", "running registration", "hands for setup", "setup crew", "setup help", "help with setup", "decorate", "decorating", "decorations", "现场布置", "志愿者招募", "招募志愿者", "收摊", "展位帮忙", "setting up chairs", "set up chairs", "set up the chairs", "展位布置", "布置展位", "set up our booth", "booth setup", "sell books", "sell merch", "merch booth", "at reception", "reception desk", "pair of hands", "hands to carry", "维持秩序", "维护秩序", "打杂", "搭把手", "搭个手", "临时工", "小时工", "on the door", "door staff", "help on the day", "stewards", "marshals", "course marshal", "lend a hand", "extra hands", "extra pair of hands", "布置会场", "会场布置", "布置场地", "场地布置", "merch table", "sell tickets", "handed out", "发名片", "发放物料", "发物料", "迎宾", "检票", "布展", "撤展", "跑腿", "带路", "展台助理", "现场助理", "booth staff", "booth assistant", "booth assistants", "志愿者", "人手", "帮手", "签到", "现场支持", "工作人员", "引导员", "发传单", "现场的引导", "做引导", "场务", "义工", "引导", "greeter", "greeters", "帮忙的人", "礼仪", "stagehand", "stagehands", "extra hands", "helping hands", "more hands", "food bank", "hand out", "handing out", "volunteer", "volunteers", "helpers", "staff", "check-in", "registration desk", "usher", "intern"}},
	{"印刷物料", "物料印刷", []string{"背景布", "座位卡", "席位卡", "桌签", "印好", "打印好", "handouts", "学员手册", "展架", "x展架", "门型展架", "桌卡", "手卡", "彩页", "宣传彩页", "stall signage", "booth signage", "展板制作", "sign maker", "sign shop", "礼品", "抽奖道具", "签名墙", "gift bags", "goodie bags", "奖牌", "奖杯", "medals", "trophies", "booth signs", "booth sign", "会员卡", "工作证", "工牌", "参会证", "胸卡", "奖状", "印证书", "折页", "宣传折页", "文创周边", "文创产品", "做展板", "印展板", "签到处背景板", "签到背景板", "招生手册", "宣传手册", "印logo", "帆布袋", "打印", "号码布", "印东西", "楼书", "伴手礼", "礼品定制", "定制礼品", "纪念品", "台卡", "印刷", "物料", "易拉宝", "横幅", "胸牌", "宣传册", "宣传单", "单页", "印出来", "纪念册", "画册", "传单", "贴纸", "喷绘", "桌牌", "背景板", "kt板", "name tags", "name tag", "lanyards", "backdrop", "印点", "印一些", "印一批", "印些", "条幅", "手提袋", "tote bags", "signs", "t恤", "文化衫", "t-shirt", "t-shirts", "tees", "merch", "merchandise", "print", "printing", "banner", "banners", "badge", "badges", "brochure", "flyers", "stickers", "swag"}},
	{"交通接送", "交通接送", []string{"车队", "从酒店送", "从机场送", "从酒店接", "从机场接", "limo", "limousine", "movers", "moving company", "courier", "摆渡车", "大客车", "货拉拉", "搬家车", "from the station", "搬家公司", "搬家", "开车接", "开车送", "接个机", "送个机", "从酒店送到", "送回酒店", "接到会场", "guests taken from", "from the hotel to the", "drive us", "drive them", "drive the guests", "drive our guests", "drive guests", "物流", "运过去", "shipped to", "有车的", "能开车", "会开车", "越野车", "七座车", "五座车", "九座车", "考斯特", "展品运输", "中巴", "婚车", "coach bus", "coach buses", "wedding car", "接送", "接机", "送机", "班车", "包车", "大巴", "巴士", "司机", "交通", "机场", "用车", "车辆", "商务车", "专车", "租车", "接站", "接驳", "货车", "订车", "taxis", "car service", "car rental", "chauffeur", "叫车", "约车", "运到", "安排车", "派车", "火车站", "高铁站", "ride", "rides", "train station", "pick up", "drop off", "van", "vans", "truck", "shuttle", "bus", "minibus", "transport", "transportation", "pickup", "driver", "airport"}},
}

// tagKeywords are the keywords of each vocabulary tag (same order) with
// the English forms a writer may use in their place: every English
// keyword's plural, the agent nouns of its -ing form ("marketing" →
// "marketer", "editing" → "editor"), and a hyphenated one also with a
// space ("front-end" → "front end"). The forms are made by rule, not
// listed, so they cover every keyword alike.
var tagKeywords = func() [][]string {
	out := make([][]string, len(vocabulary))
	for i, t := range vocabulary {
		seen := map[string]bool{}
		for _, kw := range t.keywords {
			for _, f := range inflections(kw, t.keywords) {
				if !seen[f] {
					seen[f] = true
					out[i] = append(out[i], f)
				}
			}
		}
	}
	return out
}()

// inflections are an English keyword's forms (itself first): the plural
// and, for an -ing word, its agent nouns, of the keyword's last word, and
// for a verb whose -ing form is among its siblings (the other keywords of
// its tag) the past participle; a hyphenated keyword's forms also with
// spaces. Other keywords are their own only form.
func inflections(kw string, siblings []string) []string {
	if !isASCII(kw) || kw == "" {
		return []string{kw}
	}
	head, last := "", kw
	if i := strings.LastIndexAny(kw, " -"); i >= 0 {
		head, last = kw[:i+1], kw[i+1:]
	}
	forms := []string{last}
	if len(last) >= 2 && !strings.ContainsAny(last, "0123456789") {
		forms = append(forms, plural(last))
	}
	if base, ok := strings.CutSuffix(last, "ing"); ok && len(base) >= 3 {
		forms = append(forms, base+"er", base+"ers", base+"or", base+"ors")
	}
	if slices.Contains(siblings, last+"ing") || slices.Contains(siblings, strings.TrimSuffix(last, "e")+"ing") {
		// A verb with its -ing form beside it: its past participle too
		// ("print", "printing" → "printed materials").
		forms = append(forms, strings.TrimSuffix(last, "e")+"ed")
	}
	out := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		out = append(out, head+f)
		if strings.Contains(head, "-") {
			out = append(out, strings.ReplaceAll(head, "-", " ")+f)
		}
	}
	return out
}

// plural is an English noun's regular plural.
func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// dehyphen writes a hyphen between two letters as a space, so "live-stream"
// reads as "live stream" and "sound-system" as "sound system".
func dehyphen(lower string) string {
	if !strings.Contains(lower, "-") {
		return lower
	}
	b := []byte(lower)
	for i := 1; i+1 < len(b); i++ {
		if b[i] == '-' && isASCIIAlnum(b[i-1]) && isASCIIAlnum(b[i+1]) {
			b[i] = ' '
		}
	}
	return string(b)
}

// tagIndex maps a vocabulary tag to its position in vocabulary.
var tagIndex = func() map[string]int {
	m := make(map[string]int, len(vocabulary))
	for i, t := range vocabulary {
		m[t.tag] = i
	}
	return m
}()

// eventWords reveal an event-like demand (聚会, meetup, 会议, workshop …),
// with the Chinese name the simulation uses for the event.
var eventWords = []struct{ kw, name string }{
	{"聚会", "聚会"}, {"沙龙", "沙龙"}, {"见面会", "见面会"}, {"派对", "派对"}, {"工作坊", "工作坊"},
	{"黑客松", "黑客松"}, {"峰会", "峰会"}, {"论坛", "论坛"}, {"发布会", "发布会"}, {"年会", "年会"},
	{"团建", "团建"}, {"分享会", "分享会"}, {"研讨会", "研讨会"}, {"交流会", "交流会"}, {"读书会", "读书会"},
	{"会议", "会议"}, {"讲座", "讲座"}, {"活动", "活动"},
	{"meetup", "聚会"}, {"meet-up", "聚会"}, {"party", "派对"}, {"gathering", "聚会"}, {"workshop", "工作坊"},
	{"hackathon", "黑客松"}, {"wedding", "婚礼"}, {"婚礼", "婚礼"}, {"婚宴", "婚礼"}, {"黑客马拉松", "黑客松"}, {"summit", "峰会"}, {"forum", "论坛"}, {"conference", "会议"}, {"salon", "沙龙"},
	{"screening", "放映会"}, {"放映会", "放映会"}, {"product launch", "发布会"}, {"launch event", "发布会"}, {"launch party", "发布会"}, {"event", "活动"}, {"events", "活动"}, {"seminar", "研讨会"},
}

// themes are demand topics; for an event they describe what it is about
// rather than a capability it needs.
var themes = []struct {
	name     string
	keywords []string
}{
	{"AI", []string{"ai", "人工智能", "llm", "gpt", "aigc", "智能体", "机器学习", "深度学习", "artificial intelligence", "machine learning"}},
	{"Web3", []string{"web3", "区块链", "blockchain", "crypto", "加密"}},
	{"创业", []string{"创业", "startup", "startups", "founder", "founders", "创始人"}},
	{"产品", []string{"产品", "product"}},
	{"设计", []string{"设计", "design"}},
	{"开源", []string{"开源", "open source", "open-source"}},
	{"读书", []string{"读书", "书友", "book", "books", "reading"}},
	{"音乐", []string{"音乐", "music"}},
	{"摄影", []string{"摄影爱好", "摄影展", "photography club"}},
	{"游戏", []string{"游戏", "game", "games", "gaming"}},
	{"出海", []string{"出海", "跨境", "global"}},
	{"投资", []string{"投资", "融资", "investor", "investment", "vc"}},
}

// cities of the shared vocabulary, with their English names; 远程 means
// remote / online.
var cities = []struct{ name, en string }{
	{"北京", "beijing"}, {"上海", "shanghai"}, {"深圳", "shenzhen"},
	{"杭州", "hangzhou"}, {"广州", "guangzhou"}, {"成都", "chengdu"},
}

// remoteWords mark remote / online participation.
var remoteWords = []string{"远程", "线上", "在线", "remote", "online", "remotely", "virtual"}

// isASCIIAlnum reports whether b is an ASCII letter or digit.
func isASCIIAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// isASCII reports whether s has only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// findKeyword returns the byte index of the first occurrence of kw in the
// lower-cased text, or -1. ASCII keywords match whole words only ("ai" does
// not match "said"); others match anywhere.
func findKeyword(lower, kw string) int { return findKeywordFrom(lower, kw, 0) }

// findKeywordFrom is findKeyword for the occurrences that start at from or
// later (word boundaries read in the whole text).
func findKeywordFrom(lower, kw string, from int) int {
	if kw == "" || from > len(lower) {
		return -1
	}
	for {
		i := strings.Index(lower[from:], kw)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(kw)
		if !isASCII(kw) || (i == 0 || !isASCIIAlnum(lower[i-1])) && (end >= len(lower) || !isASCIIAlnum(lower[end])) {
			return i
		}
		from = i + 1
	}
}

// hasAny reports whether the lower-cased text contains one of the keywords.
func hasAny(lower string, kws ...string) bool {
	for _, kw := range kws {
		if findKeyword(lower, kw) >= 0 {
			return true
		}
	}
	return false
}

// tagsInText returns the vocabulary tags whose keywords (or whose own name)
// appear in text, ordered by first appearance.
func tagsInText(text string) []string {
	tagMemo.Lock()
	tags, ok := tagMemo.m[text]
	tagMemo.Unlock()
	if !ok {
		tags = scanTags(text)
		tagMemo.Lock()
		if len(tagMemo.m) >= tagMemoMax {
			clear(tagMemo.m) // simple bound: profile texts repeat, demands rarely do
		}
		tagMemo.m[text] = tags
		tagMemo.Unlock()
	}
	return slices.Clone(tags)
}

// tagMemo remembers tagsInText per text: filtering scans every profile's
// text for every demand, and the texts rarely change.
var tagMemo = struct {
	sync.Mutex
	m map[string][]string
}{m: map[string][]string{}}

const tagMemoMax = 20000

func scanTags(text string) []string {
	lower := dehyphen(strings.ToLower(text))
	type hit struct {
		tag string
		pos int
		idx int
	}
	var hits []hit
	for i, t := range vocabulary {
		best := findKeyword(lower, strings.ToLower(t.tag))
		for _, kw := range tagKeywords[i] {
			p := findKeyword(lower, kw)
			for p >= 0 && insideLonger(lower, i, kw, p) { // "同声传译设备" is equipment, not an interpreter
				p = findKeywordFrom(lower, kw, p+len(kw))
			}
			if p >= 0 && (best < 0 || p < best) {
				best = p
			}
		}
		if best >= 0 {
			hits = append(hits, hit{t.tag, best, i})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].pos != hits[b].pos {
			return hits[a].pos < hits[b].pos
		}
		return hits[a].idx < hits[b].idx
	})
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		out = append(out, h.tag)
	}
	return out
}

// insideLonger reports whether keyword kw of tag i, at p, lies inside a
// longer keyword of another tag, a noun for people nobody in the network
// is, or a word of no trade: "food" in "food bank" is no caterer, "同声传
// 译" in "同声传译设备" no interpreter, "designer" in "interior designer"
// no UI designer, "开发" in "开发区" no developer.
func insideLonger(lower string, i int, kw string, p int) bool {
	for _, l := range longerKeywords()[kw] {
		if l.tag == i {
			continue
		}
		for q := findKeyword(lower, l.kw); q >= 0 && q <= p; q = findKeywordFrom(lower, l.kw, q+1) {
			if q+len(l.kw) >= p+len(kw) {
				return true
			}
		}
	}
	return false
}

// wordsOfNoTrade hold a trade's keyword and name no work: places,
// businesses and common words ("经济开发区", "房地产开发商", "吃苦耐劳", "a
// strong track record", "talk to a lawyer"), a meeting named by a place
// ("a town hall"), the terms of a hire ("on a contract basis") and
// material and people the demand already has ("raw footage", "old
// photos", "our staff").
var wordsOfNoTrade = []string{"mon pm", "tue pm", "wed pm", "thu pm", "fri pm", "sat pm", "sun pm", "today pm", "tomorrow pm", "to the venue", "from the venue", "food drive", "food donations", "my lectures", "my lecture", "my talks", "my classes", "开发区", "开发商", "吃苦", "吃力", "吃亏", "吃惊", "吃播", "餐具",
	"track record", "there's room", "there is room", "room for improvement", "talk to a", "talk to an", "talk with a", "talk with an", "space themed", "outer space",
	"tax included", "tax inclusive", "including tax", "tax free", "帮忙推荐个", "帮忙推荐一个", "帮忙推荐一位", "帮忙推荐几个", "送到会场", "到会场", "staff outing", "staff party", "staff retreat", "staff dinner", "design studio", "yoga studio", "dance studio", "fitness studio", "our studio", "my studio", "tattoo studio",
	"town hall", "month contract", "months contract", "contract role", "contract position", "contract basis", "old photos", "old pictures", "old family photos", "raw footage", "existing footage", "our staff", "our employees"}

// compositePhrases are a composite role's words with a trade's keyword in
// them: the composite names the need ("全栈开发" is one full-stack
// developer, not also a front-end and a back-end one).
var compositePhrases = []string{"全栈开发", "全栈工程师", "全栈程序员", "full stack developer", "full stack developers", "full stack engineer", "full stack engineers", "full stack dev"}

// keywordSet holds every keyword of the vocabulary.
var keywordSet = func() map[string]bool {
	out := map[string]bool{}
	for i := range vocabulary {
		for _, kw := range tagKeywords[i] {
			out[kw] = true
		}
	}
	return out
}()

// longerKeyword is a keyword of tag (its index in vocabulary; -1: a noun
// of plainPersonNouns, a word of wordsOfNoTrade or a phrase of
// compositePhrases) that holds a shorter one.
type longerKeyword struct {
	tag int
	kw  string
}

// longerKeywords maps each keyword to the longer keywords holding it,
// built the first time a text is read (about 20 ms: not at every start).
var longerKeywords = sync.OnceValue(func() map[string][]longerKeyword {
	out := map[string][]longerKeyword{}
	for i := range vocabulary {
		for _, kw := range tagKeywords[i] {
			if _, done := out[kw]; done {
				continue
			}
			out[kw] = nil
			for j := range vocabulary {
				for _, l := range tagKeywords[j] {
					if len(l) > len(kw) && strings.Contains(l, kw) {
						out[kw] = append(out[kw], longerKeyword{j, l})
					}
				}
			}
			for _, l := range slices.Concat(plainPersonNouns, wordsOfNoTrade, compositePhrases) {
				if len(l) > len(kw) && strings.Contains(l, kw) {
					out[kw] = append(out[kw], longerKeyword{-1, l})
				}
			}
		}
	}
	return out
})

// normalizeTag maps a tag written by anyone (a real model, a profile) onto
// the vocabulary: a vocabulary tag stays, a known keyword maps to its tags,
// anything else is kept as written.
func normalizeTag(tag string) []string {
	tag = strings.TrimSpace(tag)
	if tag == "" {
		return nil
	}
	if _, ok := tagIndex[tag]; ok {
		return []string{tag}
	}
	for _, t := range vocabulary {
		if strings.EqualFold(t.tag, tag) || t.role == tag {
			return []string{t.tag}
		}
	}
	if found := tagsInText(tag); len(found) > 0 {
		return found
	}
	return []string{tag}
}

// normalizeTags normalizes and de-duplicates tags, keeping their order.
func normalizeTags(tags []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tags {
		for _, n := range normalizeTag(t) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// roleOf is the role name of a tag ("摄影" → "摄影师"); unknown tags are
// their own role.
func roleOf(tag string) string {
	if i, ok := tagIndex[tag]; ok {
		return vocabulary[i].role
	}
	return tag
}

// tagOfRole maps a role name (or any text naming a role) back to the
// vocabulary tags it covers.
func tagOfRole(role string) []string {
	role = strings.TrimSpace(role)
	for _, t := range vocabulary {
		if t.role == role || t.tag == role {
			return []string{t.tag}
		}
	}
	return tagsInText(role)
}

// cityIn returns the first city named in text (Chinese or English), or "".
func cityIn(text string) string {
	lower := strings.ToLower(text)
	best, name := -1, ""
	for _, c := range cities {
		for _, kw := range []string{c.name, c.en} {
			if p := findKeyword(lower, kw); p >= 0 && (best < 0 || p < best) {
				best, name = p, c.name
			}
		}
	}
	return name
}

// isRemote reports whether text marks remote / online participation.
func isRemote(text string) bool {
	return hasAny(strings.ToLower(text), remoteWords...)
}

// notEventAfter are words after an event keyword that make it a modifier
// of another noun ("活动海报", "会议室", "conference room") rather than an
// event.
var notEventAfter = map[string][]string{
	"活动":         {"报名", "海报", "网站", "物料", "页面", "小程序", "文案", "照片", "视频", "策划", "空间"},
	"会议":         {"室", "纪要", "记录"},
	"conference": {" room", " call"},
	"event":      {" planner", " planning"},
}

// eventName returns the Chinese name of the event a text describes
// ("聚会", "工作坊" …), or "" when it is not event-like. A specific word
// wins over the generic 活动 / event.
func eventName(text string) string {
	lower := strings.ToLower(text)
	best, name := -1, ""
	for _, e := range eventWords {
		p := findEvent(lower, e.kw)
		if p < 0 {
			continue
		}
		generic := e.name == "活动"
		if best < 0 || (name == "活动" && !generic) || (p < best && !(generic && name != "活动")) {
			best, name = p, e.name
		}
	}
	return name
}

// findEvent is the position of the first occurrence of an event keyword
// that is not a modifier of another noun, or -1.
func findEvent(lower, kw string) int {
	return findKeywordUnless(lower, kw, func(_, rest string) bool {
		return slices.ContainsFunc(notEventAfter[kw], func(w string) bool { return strings.HasPrefix(rest, w) })
	})
}

// findKeywordUnless is the position of the first occurrence of kw (as
// findKeyword) whose surrounding text (before it, after it) does not make
// skip true, or -1.
func findKeywordUnless(lower, kw string, skip func(before, rest string) bool) int {
	for from := 0; from < len(lower); {
		i := findKeyword(lower[from:], kw)
		if i < 0 {
			return -1
		}
		i += from
		if !skip(lower[:i], lower[i+len(kw):]) {
			return i
		}
		from = i + len(kw)
	}
	return -1
}

// themeOf returns the topic of a text ("AI", "创业" …), or "".
func themeOf(text string) string {
	lower := strings.ToLower(text)
	best, name := -1, ""
	for _, th := range themes {
		for _, kw := range th.keywords {
			if p := findKeyword(lower, kw); p >= 0 && (best < 0 || p < best) {
				best, name = p, th.name
			}
		}
	}
	return name
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// joinCN joins items with the Chinese enumeration comma.
func joinCN(items []string) string { return strings.Join(items, "、") }
