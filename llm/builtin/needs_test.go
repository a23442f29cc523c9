package builtin

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	neg "github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
)

// TestNeedsIn: the needs the builtin brain reads from demands people write,
// in Chinese and English, with counts; unclear and impossible ones have
// none.
func TestNeedsIn(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"I need a photographer and a caterer for a 30-person wedding in Shanghai next month", "摄影师×1[摄影] 餐饮供应商×1[餐饮服务]"},
		{"下个月在深圳组织一次黑客马拉松，需要场地、评委和赞助商", "场地提供者×1[场地提供] 评委×1[演讲嘉宾 AI研究 产品经理] 赞助商×1[赞助]"},
		{"想给我们的开源项目做一个新网站，需要设计师和前端开发", "UI设计师×1[UI设计] 前端工程师×1[前端开发]"},
		{"我想在北京办一场AI主题聚会，需要场地和嘉宾", "场地提供者×1[场地提供] 演讲嘉宾×1[演讲嘉宾]"},
		{"年会需要两位主讲嘉宾、一位主持人和5名志愿者", "演讲嘉宾×2[演讲嘉宾] 主持人×1[主持] 现场志愿者×5[志愿者]"},
		{"We need two keynote speakers and 3 professional photographers for our summit", "演讲嘉宾×2[演讲嘉宾] 摄影师×3[摄影]"},
		{"找一位律师帮忙看合同", "法律顾问×1[法律咨询]"},
		{"需要司机接送嘉宾去机场", "交通接送×1[交通接送]"},
		{"帮我找一个海报设计师", "平面设计师×1[平面设计 UI设计]"},
		{"再找人做几张宣传海报，还要一篇推广文案", "平面设计师×1[平面设计] 文案撰写×1[文案写作]"},
		{"下周六在杭州搞个读书会", "场地提供者×1[场地提供] 活动策划×1[活动策划]"},
		// The work asked for by its verb; an object that names a trade
		// takes the verb's place; a verb not asked for names nobody.
		{"Need someone to write our press kit and to edit two short videos", "文案撰写×1[文案写作] 视频剪辑师×1[视频剪辑]"},
		{"Can you help us find someone to design a poster", "平面设计师×1[平面设计]"},
		{"Need help to account for the costs", ""},
		// Work asked for on a trade's thing names the trade.
		{"Our lab needs someone to clean survey data", "数据分析师×1[数据分析]"},
		{"Looking for somebody to fix our sound before the show", "音响设备支持×1[音响设备]"},
		{"The data we have is old", ""},
		// People asked to help are volunteers.
		{"小区想办美食节，需要几个人帮忙摆摊，还要一套音响", "现场志愿者×2[志愿者] 音响设备支持×1[音响设备]"},
		{"We need 4 people to help with the cleanup", "现场志愿者×4[志愿者]"},
		{"People helped a lot last time", ""},
		// A thing and a worker name a trade; a host is not one.
		{"Need a sound engineer and a data specialist for the launch", "音响设备支持×1[音响设备] 数据分析师×1[数据分析]"},
		{"The expert will present", ""},
		// Equipment words that name people elsewhere: a keyword inside a
		// longer one of another trade names that trade alone.
		{"Two live-stream hosts, plus someone to bring speakers and mics", "直播技术支持×2[直播] 音响设备支持×1[音响设备]"},
		{"Catering for the dinner, plus a PA system for the speeches", "餐饮供应商×1[餐饮服务] 音响设备支持×1[音响设备]"},
		{"We need three speakers for the forum", "演讲嘉宾×3[演讲嘉宾]"},
		{"Looking for a DJ and lighting for our party", "音响设备支持×1[音响设备]"},
		// What the work is about names the trade: the data, the film.
		{"店铺转化率掉了，想找人看看后台数据", "数据分析师×1[数据分析]"},
		{"还想拍一条宣传短片", "视频剪辑师×1[视频剪辑]"},
		{"Need someone for translating at the press conference", "翻译×1[翻译]"},
		{"找人帮忙把活动视频剪成三分钟的精华版", "视频剪辑师×1[视频剪辑]"},
		{"需要有人帮忙把产品说明书翻成日文", "翻译×1[翻译]"},
		{"公司团建需要订大巴去郊区", "交通接送×1[交通接送]"},
		{"We want to run a Python workshop and need two instructors", "演讲嘉宾×2[演讲嘉宾]"},
		{"Seeking interns to help at the registration desk", "现场志愿者×1[志愿者]"},
		// A person asked for by a noun nobody's trade names is a need of
		// its own (a gap), at an event too; a noun that names no person
		// is not.
		{"想请一位营养师来给员工讲讲健康饮食", "营养师×1[营养师]"},
		{"婚礼想请一个化妆师", "化妆师×1[化妆师]"},
		{"Looking for a makeup artist for a wedding in Suzhou", "makeup artist×1[makeup artist]"},
		{"社区义诊需要3名医生", "医生×3[医生]"},
		{"I need a better life", ""},
		{"我需要一个答案", ""},
		{"要租个报告厅，再请两位行业前辈分享职业经验", "场地提供者×1[场地提供] 演讲嘉宾×2[演讲嘉宾]"},
		{"周末办个读书分享会，需要场地", "场地提供者×1[场地提供]"},
		{"我想分享一下我们的经验", ""},
		{"We plan to keep it small", ""},
		// What the demand has already or does not want is no need.
		{"场地我们已经有了，不需要再找，只缺一位主持人和两名摄影师", "主持人×1[主持] 摄影师×2[摄影]"},
		{"We already have a venue; we just need a couple of speakers and someone to livestream it", "演讲嘉宾×2[演讲嘉宾] 直播技术支持×1[直播]"},
		// The things a participle comes after are its worker's work;
		// before a noun, the noun is.
		{"Art opening: need posters and catalogues printed, a photographer and snacks", "物料印刷×1[印刷物料] 摄影师×1[摄影] 餐饮供应商×1[餐饮服务]"},
		{"Need our logo redesigned and new business cards printed", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"We need the whole conference filmed and a highlight reel cut afterwards", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"Product launch: we need a host, a photographer and printed badges", "主持人×1[主持] 摄影师×1[摄影] 物料印刷×1[印刷物料]"},
		// The worker's word, not the situation's, gives the count.
		{"明天上午需要一辆车从机场接三位外宾到酒店，再安排一名随行翻译", "交通接送×1[交通接送] 翻译×1[翻译]"},
		// A word that says what another trade's thing is about.
		{"We need someone to shoot product photos and write descriptions", "摄影师×1[摄影] 文案撰写×1[文案写作]"},
		// Later items of a list, and counts past a short description.
		{"周六的婚礼需要化妆师、摄影师和一位司仪", "化妆师×1[化妆师] 摄影师×1[摄影] 主持人×1[主持]"},
		{"Need a wedding planner, a florist and a string quartet", "活动策划×1[活动策划] florist×1[florist]"},
		{"招聘季要做校园宣讲，需要海报、易拉宝和两位在职工程师分享经验", "平面设计师×1[平面设计] 物料印刷×1[印刷物料] 演讲嘉宾×2[演讲嘉宾]"},
		{"能不能帮我找几个会说英语的志愿者，周末在北京的国际马拉松帮忙", "现场志愿者×2[志愿者]"},
		{"要租个能坐200人的报告厅", "场地提供者×1[场地提供]"},
		{"需要5个人周日帮忙布置展台，另外需要音响师", "现场志愿者×5[志愿者] 音响设备支持×1[音响设备]"},
		// A role noun the profiles' words name is their trade.
		{"武汉的草地音乐节需要调音师", "音响设备支持×1[音响设备]"},
		{"需要一个数据工程师搭数据仓库", "数据工程师×1[数据工程师]"},
		{"银行网点要办理财讲座，需要一位理财讲师和签到人员", "演讲嘉宾×1[演讲嘉宾] 现场志愿者×1[志愿者]"},
		{"Need a UX researcher to interview 10 users and a designer to turn findings into wireframes", "UI设计师×1[UI设计]"},
		{"健身房开业活动，需要DJ、主持人和一些宣传单页", "音响设备支持×1[音响设备] 主持人×1[主持] 物料印刷×1[印刷物料]"},
		{"Our car dealership wants a video ad and someone to manage our WeChat account", "视频剪辑师×1[视频剪辑] 推广负责人×1[市场推广]"},
		// Counts written after the role; a count before "and" is the
		// item before it.
		{"南昌的高校辩论赛需要评委五位和一位主持人", "评委×5[演讲嘉宾 AI研究 产品经理] 主持人×1[主持]"},
		{"我们在佛山的工厂开放日需要导览员三名、大巴两辆", "导览员×3[导览员] 交通接送×1[交通接送]"},
		{"Weekend coding bootcamp: need two instructors, a room for 25 and lunch both days", "演讲嘉宾×2[演讲嘉宾] 场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务]"},
		// A situation word before a role says what the person is like;
		// what 把 acts on is the work; "的分享" is a thing.
		{"昆明的民族音乐会想请人做双语主持，还要直播", "主持人×1[主持] 直播技术支持×1[直播]"},
		{"想找人把公司的宣传册翻译成英文，再重新排版", "翻译×1[翻译] 平面设计师×1[平面设计]"},
		{"厦门的创业营缺三位导师，另外想找个人把每天的分享剪成短视频", "导师×3[演讲嘉宾 产品经理 AI研究] 视频剪辑师×1[视频剪辑]"},
		// A verb that names a trade keeps its object from naming another.
		{"Looking for someone to edit our wedding video", "视频剪辑师×1[视频剪辑]"},
		{"青岛啤酒节的展位需要设计一套展板并印出来，还要两个促销员", "平面设计师×1[平面设计] 物料印刷×1[印刷物料] 促销员×2[促销员]"},
		// A count of things is not a count of workers.
		{"Our cafe wants a new signboard, table cards and a few photos for the menu", "平面设计师×1[平面设计] 摄影师×1[摄影]"},
		{"For our charity gala we need an auctioneer, a string trio and a host", "auctioneer×1[auctioneer] 主持人×1[主持]"},
		{"Need bilingual volunteers to guide foreign guests at the expo", "现场志愿者×1[志愿者]"},
		{"Conference needs simultaneous interpreters, an AV team and lunch for 150", "翻译×1[翻译] 音响设备支持×1[音响设备] 餐饮供应商×1[餐饮服务]"},
		{"Need someone to give a talk on data privacy law to our engineers", "演讲嘉宾×1[演讲嘉宾]"},
		{"学校科技节再来十个学生志愿者", "现场志愿者×10[志愿者]"},
		{"年底盘点需要两个临时会计帮忙对账", "财务顾问×2[财务]"},
		{"我们是做宠物食品的，想拍一组产品图，再写点详情页文案", "摄影师×1[摄影] 文案撰写×1[文案写作]"},
		// People whose nouns end like no person noun.
		{"年会想请一支乐队和一个魔术师", "乐队×1[乐队] 魔术师×1[魔术师]"},
		{"演唱会需要十名保安维持秩序", "保安×10[保安]"},
		{"We need a band and a clown for the kids' party", "band×1[band] clown×1[clown]"},
		{"找个厨子做二十人的家宴", "餐饮供应商×1[餐饮服务]"},
		{"The band played well", ""},
		{"公司想拍一部微电影，需要编剧、导演和演员", "文案撰写×1[文案写作] 摄像师×1[摄像] 演员×1[演员]"},
		{"下周要接待一个日本代表团，需要日语翻译两名和一辆商务车", "翻译×2[翻译] 交通接送×1[交通接送]"},
		{"x", ""},
		{"我需要一艘宇宙飞船去火星", ""},
		{"asdfgh qwerty", ""},
		// General words for work asked for plainly: a tax-savvy person, a
		// place to sit thirty, a writer with a good pen, an expert, churn
		// analysis, a ride, the numbers, an agreement, the word out, extra
		// hands; a keyword inside another trade's longer one, wherever
		// that one is ("food" in "food bank").
		{"老板让我找个懂税的帮忙看下账", "财务顾问×1[财务]"},
		{"需要个地方，能坐下三十人开会", "场地提供者×1[场地提供]"},
		{"公众号没人写，想找个笔头好的", "推广负责人×1[市场推广] 文案撰写×1[文案写作]"},
		{"想请一位业内大牛来给员工讲讲AI", "演讲嘉宾×1[演讲嘉宾]"},
		{"我们想分析一下用户流失的原因", "数据分析师×1[数据分析]"},
		{"Need a ride for 5 guests from the train station to the hotel", "交通接送×1[交通接送]"},
		{"Looking for somebody who can crunch our sales numbers", "数据分析师×1[数据分析]"},
		{"Can anyone review the terms of our supplier agreement?", "法律顾问×1[法律咨询]"},
		{"Need help getting the word out about our new cafe", "推广负责人×1[市场推广]"},
		{"Need a few extra hands at the food bank on Sunday", "现场志愿者×3[志愿者]"},
		// What 把 acts on is the work's object; what a demand says there is
		// already ("有个讲座", "有一位翻译") is no need, unless it wants one
		// ("需要有个") or asks whether there is one ("有没有").
		{"想把一场讲座录下来并做成短视频", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"周六有个讲座，想找人录下来", "摄像师×1[摄像]"},
		{"我们有个场地，需要一位主持人", "主持人×1[主持]"},
		{"年会需要有个主持人", "主持人×1[主持]"},
		{"有没有摄影师可以拍婚礼", "摄影师×1[摄影]"},
		{"我们公司有一位翻译，但还需要同传设备", "音响设备支持×1[音响设备]"},
		// Things a trade makes, asked for by the thing: a brand guide, a
		// mascot, T-shirts, charts, a handbook, minutes, a manual, an
		// animation, a cake; "translated into" ends the translator's phrase.
		{"想做个品牌手册", "平面设计师×1[平面设计]"},
		{"需要一批定制T恤，印上活动logo", "物料印刷×1[印刷物料] 平面设计师×1[平面设计]"},
		{"想给公司做一本员工手册", "文案撰写×1[文案写作]"},
		{"需要人帮忙做会议纪要", "文案撰写×1[文案写作]"},
		{"需要一份活动的新闻通稿", "文案撰写×1[文案写作]"},
		{"想要一段开场动画", "视频剪辑师×1[视频剪辑]"},
		{"Looking for a mascot design", "平面设计师×1[平面设计]"},
		{"Need custom t-shirts for the team", "物料印刷×1[印刷物料]"},
		{"We want an annual report with charts", "数据分析师×1[数据分析]"},
		{"Need meeting minutes taken at our board meeting", "文案撰写×1[文案写作]"},
		{"Need our user manual translated into Spanish", "翻译×1[翻译]"},
		{"Looking for a wedding cake", "餐饮供应商×1[餐饮服务]"},
		// Domains' own words: promo photos, localization, casters and
		// livestream hosts, survey analysis, interpretation, a trainer, a
		// trailer, pixel art, a food photographer (no caterer), a car.
		{"猫咖开业想拍点宣传照，再印些传单", "摄影师×1[摄影] 物料印刷×1[印刷物料]"},
		{"独立游戏要上Steam，想找人做宣传片和英文本地化", "视频剪辑师×1[视频剪辑] 翻译×1[翻译]"},
		{"Indie game launch: need a trailer and localization into Japanese", "视频剪辑师×1[视频剪辑] 翻译×1[翻译]"},
		{"Esports tournament needs casters and a stream setup", "主持人×1[主持] 直播技术支持×1[直播]"},
		{"想做一场助农直播，需要主播和运营", "直播技术支持×1[直播] 主播×1[直播 主持]"},
		{"实验室要做问卷分析，需要懂SPSS的", "数据分析师×1[数据分析]"},
		{"Conference needs simultaneous interpretation and registration staff", "翻译×1[翻译] 现场志愿者×1[志愿者]"},
		{"Restaurant opening: need a food photographer and menu design", "摄影师×1[摄影] 平面设计师×1[平面设计]"},
		{"公司团建想找个地方烧烤，还要有人安排车", "场地提供者×1[场地提供] 交通接送×1[交通接送]"},
		// Plain English: the writer's own planning is no need ("Planning a
		// charity run"), help with it is ("Need help organizing"); a place
		// to host, a booking page, a camera crew, SQL, a van, people to hand
		// out flyers; a freelancer is no trade of its own.
		{"Planning a charity run in Xiamen, need volunteers, water stations and a photographer", "现场志愿者×1[志愿者] 摄影师×1[摄影]"},
		{"We're organizing a meetup and need a venue", "场地提供者×1[场地提供]"},
		{"Need help organizing a three-day offsite for 30 people in Hangzhou", "活动策划×1[活动策划]"},
		{"Throwing a retirement party for my dad in Chengdu, need somewhere to host 40 people and food", "场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务]"},
		{"Can someone help set up a booking page for my yoga studio?", "前端工程师×1[前端开发]"},
		{"Need a host and a camera crew for a panel discussion", "主持人×1[主持] 摄像师×1[摄像]"},
		{"Need someone who knows SQL to pull some reports", "数据分析师×1[数据分析]"},
		{"Need a van to move equipment from Beijing to Tianjin", "交通接送×1[交通接送]"},
		{"Hiring a freelancer to write blog posts about travel", "文案撰写×1[文案写作]"},
		// The same in colloquial Chinese: audio to cut, a recap to cut, the
		// reason sales fell, running a Xiaohongshu account, flyers handed
		// out, someone who knows product, a truck, a bartender.
		{"我们要录一档播客，需要人帮忙剪音频", "视频剪辑师×1[视频剪辑]"},
		{"新品发布会需要人全程跟拍，会后剪一个一分钟的回顾", "摄影师×1[摄影] 视频剪辑师×1[视频剪辑]"},
		{"上个季度销量掉得厉害，想找人分析下原因", "数据分析师×1[数据分析]"},
		{"想找人帮我们代运营小红书一个月", "推广负责人×1[市场推广]"},
		{"想找个懂产品的人帮我们梳理MVP", "产品经理×1[产品经理]"},
		{"八十人的宴会需要餐饮和调酒师", "餐饮供应商×1[餐饮服务]"},
		// A role noun ends before a common word it starts ("给员工": no
		// "给员"); an opening video, a scraper, a homepage design, notes
		// taken.
		{"需要给员工做一次消防培训，找个讲师", "演讲嘉宾×1[演讲嘉宾]"},
		{"年会需要拍一个开场视频", "视频剪辑师×1[视频剪辑]"},
		{"我们需要一个懂Python的人帮忙写爬虫", "后端工程师×1[后端开发]"},
		{"想找人翻新一下公司官网的首页设计", "UI设计师×1[UI设计]"},
		{"Need someone to moderate a panel and someone to take notes", "主持人×1[主持] 文案撰写×1[文案写作]"},
		// The writer's own shop is no need ("我开了家咖啡馆"); a résumé into
		// English, a car to book, a recording to transcribe, packaging,
		// more customers, user research.
		{"我开了家咖啡馆，想让更多人知道", "推广负责人×1[市场推广]"},
		{"有没有人能帮我把简历改成英文的", "翻译×1[翻译]"},
		{"下周三公司要接待一批日本客人，得有人陪同翻译，还要订车", "翻译×1[翻译] 交通接送×1[交通接送]"},
		{"能不能找个人帮忙把会议录音整理成文字", "文案撰写×1[文案写作]"},
		{"给老客户寄的节日礼盒需要设计包装", "平面设计师×1[平面设计]"},
		{"Anyone who can turn our recordings into transcripts?", "文案撰写×1[文案写作]"},
		{"Who can help us get more customers for our bakery?", "推广负责人×1[市场推广]"},
		// People named by the network's trades in other words: a curator,
		// a floor manager, a stenographer, a graphic artist (美工), a
		// coder, a sound desk, a cashier, a baker, a barista, a stagehand,
		// a motion designer, an influencer.
		{"下个月的活动需要一位策展人", "活动策划×1[活动策划]"},
		{"下个月的活动需要一位美工", "平面设计师×1[平面设计]"},
		{"下个月的活动需要一位音控", "音响设备支持×1[音响设备]"},
		{"下个月的活动需要一位出纳", "财务顾问×1[财务]"},
		{"下个月的活动需要一位速记员", "文案撰写×1[文案写作]"},
		{"For our event next month we need a barista", "餐饮供应商×1[餐饮服务]"},
		{"For our event next month we need a stagehand", "现场志愿者×1[志愿者]"},
		{"For our event next month we need a motion designer", "视频剪辑师×1[视频剪辑]"},
		{"For our event next month we need a lighting designer", "音响设备支持×1[音响设备]"},
		{"For our event next month we need a community manager", "推广负责人×1[市场推广]"},
		// Each trade's everyday words ("人工智能" holds no person called
		// "人工").
		{"我们需要人工智能方面的顾问", ""},
		{"我们需要宴席和水果", "餐饮供应商×1[餐饮服务]"},
		{"我们需要名片和邀请函设计", "平面设计师×1[平面设计]"},
		{"我们需要条幅和手提袋", "物料印刷×1[印刷物料]"},
		{"我们需要人帮忙修图", "摄影师×1[摄影]"},
		{"我们需要一间教室", "场地提供者×1[场地提供]"},
		{"We need wireframes for our event app", "UI设计师×1[UI设计] 前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"We need a chatbot for our website", "AI技术顾问×1[AI研究] 前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"We need refreshments and a booth for the fair", "餐饮供应商×1[餐饮服务] 场地提供者×1[场地提供]"},
		// Work asked for by its verb, colloquially.
		{"想找人帮忙剪一下视频", "视频剪辑师×1[视频剪辑]"},
		{"想找人帮忙印点东西", "物料印刷×1[印刷物料]"},
		{"想找人帮忙推一下我们的活动", "推广负责人×1[市场推广]"},
		{"想找人帮忙算一下账", "财务顾问×1[财务]"},
		{"想找人帮忙跑一下数据", "数据分析师×1[数据分析]"},
		{"想找人帮忙做一桌菜", "餐饮供应商×1[餐饮服务]"},
		{"想找人帮忙训练个模型", "AI技术顾问×1[AI研究]"},
		{"Can someone cut this video down?", "视频剪辑师×1[视频剪辑]"},
		{"Can someone do our books?", "财务顾问×1[财务]"},
		{"Can someone set up the sound?", "音响设备支持×1[音响设备]"},
		// Each trade's everyday English.
		{"We need canapés and name tags for our event", "餐饮供应商×1[餐饮服务] 物料印刷×1[印刷物料]"},
		{"We need an attorney and a CPA for our event", "法律顾问×1[法律咨询] 财务顾问×1[财务]"},
		{"We need a master of ceremonies and video coverage for our event", "主持人×1[主持] 摄像师×1[摄像]"},
		{"We need mockups and a sizzle reel for our event", "UI设计师×1[UI设计] 视频剪辑师×1[视频剪辑]"},
		// Each trade's everyday Chinese, a second pass; a role noun starts
		// after the words that ask for it ("请个老师": 老师).
		{"下周的活动需要软文和背景板", "文案撰写×1[文案写作] 物料印刷×1[印刷物料]"},
		{"下周的活动需要拉新和宣发", "推广负责人×1[市场推广]"},
		{"下周的活动需要一个AI技术顾问", "AI技术顾问×1[AI研究]"},
		{"下周的活动需要数据报告", "数据分析师×1[数据分析]"},
		{"下周的活动需要加字幕", "视频剪辑师×1[视频剪辑]"},
		{"下周的活动需要请个老师讲讲", "老师×1[老师]"},
		// A referee is no hackathon judge; a coach bus no mentor.
		{"周末在深圳办羽毛球友谊赛，需要裁判两名、摄影一名", "裁判×2[裁判] 摄影师×1[摄影]"},
		{"Company trip to Guilin for 25 people: need a coach bus and a local guide", "交通接送×1[交通接送] local guide×1[local guide]"},
		// A count by 位 or 名 reaches past a longer word, and holds where
		// the trade is named again; a verb followed by a count asks for
		// the people after it.
		{"马拉松补给站缺人手，需要8名志愿者和一辆运送物资的货车", "现场志愿者×8[志愿者] 交通接送×1[交通接送]"},
		{"招募10名马拉松赛道志愿者，北京", "现场志愿者×10[志愿者]"},
		// The writer's own thing, wanting another trade's work, is no need.
		{"餐厅想换一套新的菜单和门头设计", "平面设计师×1[平面设计]"},
		{"Our online store needs product photos and better product descriptions", "摄影师×1[摄影] 文案撰写×1[文案写作]"},
		{"Our website needs to be rebuilt", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		// The verb of work someone is asked to do keeps its object.
		{"We need someone to translate our app into Japanese", "翻译×1[翻译]"},
		// Words of the domain batch.
		{"劳动仲裁的事想咨询一下专业人士，最好在上海", "法律顾问×1[法律咨询]"},
		{"婚礼需要司仪、跟拍摄影和婚车", "主持人×1[主持] 摄影师×1[摄影] 交通接送×1[交通接送]"},
		{"行业峰会需要同声传译和会场", "翻译×1[翻译] 场地提供者×1[场地提供]"},
		{"Publishing a poetry book: need a cover design and an English translation", "平面设计师×1[平面设计] 翻译×1[翻译]"},
		{"Podcast needs audio editing and cover art", "视频剪辑师×1[视频剪辑] 平面设计师×1[平面设计]"},
		{"Live-selling session for local farmers: need a host and a stream operator", "主持人×1[主持] 直播技术支持×1[直播]"},
		{"给初中生上一堂AI科普课，需要一位讲师和两名助教", "演讲嘉宾×1[演讲嘉宾] 助教×2[助教]"},
		// The words before the first verb of wanting are the writer's own
		// (the lecture is theirs, the firm is theirs), unless a count
		// follows the verb; a thing's owner before 的 is no need.
		{"医院科普讲座需要主持人、直播和宣传海报", "主持人×1[主持] 直播技术支持×1[直播] 平面设计师×1[平面设计]"},
		{"会计师事务所需要一个官网", "前端工程师×1[前端开发]"},
		{"AI研究员想找一位产品经理合作", "产品经理×1[产品经理]"},
		{"主持人需要一位，摄影师需要两位", "主持人×1[主持] 摄影师×2[摄影]"},
		{"需要给志愿者的午餐和一位摄影师", "餐饮供应商×1[餐饮服务] 摄影师×1[摄影]"},
		// An anchor is a host or a livestream hand; people nobody in the
		// network is are gaps of their own.
		{"助农直播需要一个主播和场控", "主播×1[直播 主持] 活动策划×1[活动策划]"},
		{"独立游戏需要美术外包和音效设计", "平面设计师×1[平面设计] 视频剪辑师×1[视频剪辑]"},
		{"Esports final: need two shoutcasters, a stream director and stage lighting", "主持人×2[主持] 直播技术支持×1[直播] 音响设备支持×1[音响设备]"},
		{"Pet adoption drive: need volunteers, a vet on site and posters", "现场志愿者×1[志愿者] vet×1[vet] 平面设计师×1[平面设计]"},
		{"Publishing house needs a copy editor and a cover designer", "文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		// Work said by what the person can do: a language spoken is an
		// interpreter's; the guests a driver takes are no speakers.
		{"Need a person who speaks Japanese to accompany our clients in Osaka", "翻译×1[翻译]"},
		{"想找个会说日语的人陪客户在大阪逛两天", "翻译×1[翻译]"},
		{"想找一个能开车的人帮忙接送嘉宾", "交通接送×1[交通接送]"},
		{"Anyone good with numbers who can sort out our expenses?", "财务顾问×1[财务]"},
		{"Looking for someone who can build a simple booking system", "后端工程师×1[后端开发]"},
		{"有没有人能帮忙把这段采访剪出来", "视频剪辑师×1[视频剪辑]"},
		{"Need someone handy with a camera for our product launch", "摄影师×1[摄影]"},
		// Deliverables named as the suite's roles are.
		{"楼盘开放日需要楼书设计和伴手礼", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"下个月的活动需要数据看板、竞品分析和访谈记录", "数据分析师×1[数据分析] 产品经理×1[产品经理] 文案撰写×1[文案写作]"},
		{"音乐节需要舞台搭建和急救", "音响设备支持×1[音响设备] 急救×1[急救]"},
		// English in the suite's style; a count of courses is no count
		// of caterers.
		{"Corporate gala: need a ballroom, a five-course dinner, a live band and an MC", "场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务] band×1[band] 主持人×1[主持]"},
		{"Music festival in Chengdu: need sound engineers, lighting, security and food trucks", "音响设备支持×1[音响设备] 餐饮供应商×1[餐饮服务]"},
		{"Product launch in Beijing: need a stage designer, an MC, a livestream and press releases", "音响设备支持×1[音响设备] 主持人×1[主持] 直播技术支持×1[直播] 文案撰写×1[文案写作]"},
		{"Book club in Chengdu: need a cosy room, tea and snacks, and a discussion leader", "场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务] 主持人×1[主持]"},
		// A person asked for by what they do ("…的"); a kind of work
		// several trades do, when nothing more precise is named, asks for
		// one person of any of them (not the event's venue and planner).
		{"周六的活动还缺一个印东西的，在上海", "物料印刷×1[印刷物料]"},
		{"周六的活动还缺一个写代码的，在上海", "前端工程师×1[前端开发]"},
		{"周六的活动还缺一个跑腿的，在上海", "现场志愿者×1[志愿者]"},
		{"周六的活动需要一个负责设计的人", "设计师×1[平面设计 UI设计]"},
		// Counts as people write them: 俩, 仨, 十来个, 20+, "2x", "x2",
		// "（10人）", "(approx. 15)" (a need asks for ten at most).
		{"需要俩摄影师和仨志愿者", "摄影师×2[摄影] 现场志愿者×3[志愿者]"},
		{"需要十来个志愿者", "现场志愿者×10[志愿者]"},
		{"需要摄影师 x2，主持人 x1", "摄影师×2[摄影] 主持人×1[主持]"},
		{"We need 2x photographers and 1x MC", "摄影师×2[摄影] 主持人×1[主持]"},
		{"周末活动需要志愿者（6人）", "现场志愿者×6[志愿者]"},
		{"Need volunteers (approx. 8)", "现场志愿者×8[志愿者]"},
		{"Looking for 5+ volunteers", "现场志愿者×5[志愿者]"},
		// Both ends, or a full-stack developer working on either.
		{"需要前后端各一个", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"找一个全栈工程师", "全栈工程师×1[前端开发 后端开发]"},
		// Narratives: what is booked already, what the writer organises,
		// what a non-technical worker's work is for, a video to shoot.
		{"公司年底要办答谢会，大概100人。场地已经订好了，现在缺一个有经验的主持人和晚宴的餐饮", "主持人×1[主持] 餐饮供应商×1[餐饮服务]"},
		{"I'm organising a fundraising dinner for a local shelter. What I still need is an MC and a photographer", "主持人×1[主持] 摄影师×1[摄影]"},
		{"Looking for a graphic designer for the logo and a copywriter for the website", "平面设计师×1[平面设计] 文案撰写×1[文案写作]"},
		{"乐队的演出需要一个调音师，另外想找人拍一下现场视频", "音响设备支持×1[音响设备] 摄像师×1[摄像]"},
		// The suite's own demands said in the other language.
		{"Company fun sports day in Shenzhen, about 300 people: need two hosts, boxed lunches and shuttle buses", "主持人×2[主持] 餐饮供应商×1[餐饮服务] 交通接送×1[交通接送]"},
		{"Campus recruiting talk in Shanghai next month: need a lecture hall for 200 and two industry veterans to share career advice", "演讲嘉宾×2[演讲嘉宾] 场地提供者×1[场地提供]"},
		{"Our neighbourhood is holding a food festival: need a few people to help keep order, plus a sound system for music", "现场志愿者×2[志愿者] 音响设备支持×1[音响设备]"},
		{"公司在招人：需要有人写招聘启事，再找个设计师做招聘海报", "文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		{"We're hiring: need someone to write our job ads and a designer for the recruitment poster", "文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		{"深圳新咖啡品牌上市：需要一位市场推广、一位文案和一位做包装的平面设计师", "推广负责人×1[市场推广] 文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		{"周五杭州公司晚宴120人，需要餐饮，另外演讲环节需要一套扩音设备", "餐饮供应商×1[餐饮服务] 音响设备支持×1[音响设备]"},
		{"上海艺术展开幕：海报和画册需要印刷，还要一位摄影师和酒水小食", "物料印刷×1[印刷物料] 摄影师×1[摄影] 餐饮供应商×1[餐饮服务]"},
		{"医院患者教育项目：需要有人写健康科普文章，再剪一些短的讲解视频", "文案撰写×1[文案写作] 视频剪辑师×1[视频剪辑]"},
		{"我们杭州的实验室需要一位机器学习研究员合写论文，还要有人帮忙清洗问卷数据", "AI技术顾问×1[AI研究] 数据分析师×1[数据分析]"},
		// A slip of one letter in a long English role noun; a head two
		// trades share names neither.
		{"need a phtographer and a vidographer", "摄影师×1[摄影] 摄像师×1[摄像]"},
		{"Need a painter for the mural", "painter×1[painter]"},
		{"Looking for somebody to fix our audio before the show", "音响设备支持×1[音响设备]"},
		{"Need someone to man the registration table", "现场志愿者×1[志愿者]"},
		// Software demands: the writer's product told of before the
		// request; a skill the person has; a thing named after it shown
		// (展示) is no exhibition.
		{"App的注册流程太复杂，想找个交互设计师优化一下", "UI设计师×1[UI设计]"},
		{"想做一个英文版的官网，需要翻译和前端", "翻译×1[翻译] 前端工程师×1[前端开发]"},
		{"我们的小程序总是卡顿，想找个懂服务器的人看看", "后端工程师×1[后端开发]"},
		{"Migrating our database to Postgres, need a backend dev with SQL skills", "后端工程师×1[后端开发]"},
		{"想做一个数据大屏展示销售情况", "前端工程师×1[前端开发]"},
		{"想把客服系统接入大模型，需要懂RAG的工程师", "AI技术顾问×1[AI研究]"},
		{"Need help with our WeChat mini program backend", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"Need someone to scrape competitor prices daily", "后端工程师×1[后端开发]"},
		// Hours and days are no people; 客服 is a person nobody in the
		// network is.
		{"Need a 2-hour DJ set at our party in Kunming", "音响设备支持×1[音响设备]"},
		{"需要两个小时的主持和两位周末志愿者", "主持人×1[主持] 现场志愿者×2[志愿者]"},
		{"618大促在金华，需要两名客服", "客服×2[客服]"},
		{"店铺需要电商运营", "推广负责人×1[市场推广]"},
		// A count for each item of a list; "兼" joins two skills in one
		// person.
		{"需要主持人、摄影师、化妆师各两位", "主持人×2[主持] 摄影师×2[摄影] 化妆师×2[化妆师]"},
		{"需要一名摄影兼摄像", "摄影师×1[摄影 摄像]"},
		// The theme of the event the writer holds is no need; a host
		// counted or described is a host; a measure word and a word of
		// three characters still count ("几个大学生").
		{"准备在成都办一场宠物摄影大赛，需要评委、场地和奖品赞助", "评委×1[演讲嘉宾 AI研究 产品经理] 场地提供者×1[场地提供] 赞助商×1[赞助]"},
		{"社区要办垃圾分类宣传活动，需要志愿者和宣传海报", "现场志愿者×1[志愿者] 平面设计师×1[平面设计]"},
		{"Need a bilingual host and two interpreters for a China-EU business forum in Shanghai", "主持人×1[主持] 翻译×2[翻译]"},
		{"我们在做一个公益项目，给留守儿童上网课，需要几个大学生志愿者和一个懂直播的", "现场志愿者×2[志愿者] 直播技术支持×1[直播]"},
		{"公司要参加广交会，需要两个会英语的翻译、一批宣传册，还得有人帮忙布展", "翻译×2[翻译] 物料印刷×1[印刷物料] 现场志愿者×1[志愿者]"},
		// English as people write to ask: a video to shoot, a PR person,
		// live captions, what a worker's work is for, a language spoken.
		{"We're a startup in Shenzhen: looking for a PR person, someone to shoot a launch video and a venue for about 100 people", "推广负责人×1[市场推广] 摄像师×1[摄像] 场地提供者×1[场地提供]"},
		{"Our law firm needs a translator for Japanese contracts, ideally someone with legal background", "翻译×1[翻译]"},
		{"The conference needs live captions and a sign language interpreter", "文案撰写×1[文案写作] 翻译×1[翻译]"},
		{"We need an emcee who can speak Cantonese for our Guangzhou gala", "主持人×1[主持]"},
		{"Looking for a bilingual emcee and a DJ for our gala", "主持人×1[主持] 音响设备支持×1[音响设备]"},
		// A hit set aside leaves its trade to the trade's next keyword.
		{"准备办一场宣传活动，需要推广和海报", "推广负责人×1[市场推广] 平面设计师×1[平面设计]"},
		{"我们已经有场地了，但需要一个更大的场地", "场地提供者×1[场地提供]"},
		// Role nouns of each trade, a second pass.
		{"活动需要一位剧本杀主持人和一位插画家", "主持人×1[主持] 平面设计师×1[平面设计]"},
		{"活动需要产品助理、数据专员和小编各一位", "产品经理×1[产品经理] 数据分析师×1[数据分析] 文案撰写×1[文案写作]"},
		// A role split by task counts every task's people.
		{"需要志愿者：签到4人、引导6人", "现场志愿者×10[志愿者]"},
		{"Need volunteers: 6 for check-in and 4 for guiding", "现场志愿者×10[志愿者]"},
		// Everyday words of each trade, a third pass.
		{"下个月的活动需要两位行业专家和一个控场的主持", "演讲嘉宾×2[演讲嘉宾] 主持人×1[主持]"},
		{"App上线前需要埋点和A/B测试，再找个运维", "数据分析师×1[数据分析] 后端工程师×1[后端开发]"},
		{"For our launch we need a publicist, a scriptwriter and motion graphics", "推广负责人×1[市场推广] 文案撰写×1[文案写作] 视频剪辑师×1[视频剪辑]"},
		{"新书发布会需要交传和中巴接驳", "翻译×1[翻译] 交通接送×1[交通接送]"},
		// Whom or what the work is for, after "for", "of" or "to" and "our".
		{"We're throwing a retirement party for our CFO, need a caterer and someone to MC", "餐饮供应商×1[餐饮服务] 主持人×1[主持]"},
		{"Need some nice photos of our cakes", "摄影师×1[摄影]"},
		{"Looking for a tutor for our staff and someone to translate the manual", "tutor×1[tutor] 翻译×1[翻译]"},
		// Everyday words of each trade, a fourth pass.
		{"社团招新需要一个宣传视频，找人拍和剪", "视频剪辑师×1[视频剪辑] 摄像师×1[摄像]"},
		{"我们学校运动会需要十名志愿者，还要打印号码布", "现场志愿者×10[志愿者] 物料印刷×1[印刷物料]"},
		{"想做品牌升级，需要重新设计logo，再写一份品牌故事", "平面设计师×1[平面设计] 文案撰写×1[文案写作]"},
		{"学术研讨会需要同声传译和会议记录", "翻译×1[翻译] 文案撰写×1[文案写作]"},
		{"我们要做一个小程序点餐系统，需要前端和后端各一名", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"Need help building an internal tool that pulls data from our CRM", "后端工程师×1[后端开发]"},
		{"Our choir needs a recording space and someone to design the CD sleeve", "场地提供者×1[场地提供] 平面设计师×1[平面设计]"},
		{"Need a designer to redo our restaurant menu", "平面设计师×1[平面设计]"},
		{"Looking for an illustrator for a picture book and someone to edit the text", "平面设计师×1[平面设计] 文案撰写×1[文案写作]"},
		{"研究生毕业典礼要直播，还要请一位校友代表发言", "直播技术支持×1[直播] 演讲嘉宾×1[演讲嘉宾]"},
		{"我们在做一款健身App，需要一个懂增长的运营和一个iOS开发", "推广负责人×1[市场推广] 前端工程师×1[前端开发]"},
		{"活动当天需要人负责签到和发放物料", "现场志愿者×1[志愿者]"},
		{"帮我们写一份商业计划书，再做一份路演PPT", "文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		{"周年庆需要定制一批印logo的保温杯和帆布袋", "物料印刷×1[印刷物料]"},
		{"We need event staff for a trade show, bilingual preferred", "现场志愿者×1[志愿者]"},
		{"Hiring someone to manage our Xiaohongshu account and write posts", "推广负责人×1[市场推广] 文案撰写×1[文案写作]"},
		{"A workshop for 30 founders: need a speaker on fundraising and tea breaks", "演讲嘉宾×1[演讲嘉宾] 餐饮供应商×1[餐饮服务]"},
		{"我们茶叶品牌想拍一组产品图，再找人写产品介绍", "摄影师×1[摄影] 文案撰写×1[文案写作]"},
		{"想做一档播客，需要录音棚和后期剪音频的", "场地提供者×1[场地提供] 视频剪辑师×1[视频剪辑]"},
		{"请人帮我们搭一个会员积分系统", "后端工程师×1[后端开发]"},
		{"需要做一次系统的复盘，找个数据分析师", "数据分析师×1[数据分析]"},
		{"电商大促需要拍模特图", "摄影师×1[摄影]"},
		{"学校招生宣传需要做一本招生手册", "物料印刷×1[印刷物料]"},
		{"想请一位设计师帮我们的咖啡店设计杯套和贴纸", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"校友返校日需要签到志愿者和一个纪念视频", "现场志愿者×1[志愿者] 视频剪辑师×1[视频剪辑]"},
		{"老板让我搞定发布会的物料：签到处背景板、桌牌、胸牌，还有给嘉宾的伴手礼", "物料印刷×1[印刷物料]"},
		{"公司要做一个内部培训平台，要有视频课程和考试功能", "后端工程师×1[后端开发]"},
		{"我们是一家律所，想拍一组律师形象照，再做一个新官网", "摄影师×1[摄影] 前端工程师×1[前端开发]"},
		{"Our library wants to run a coding club: need two volunteer instructors", "演讲嘉宾×2[演讲嘉宾]"},
		{"Our team needs help analyzing app reviews", "数据分析师×1[数据分析]"},
		{"Need a bilingual MC and a photo booth for a gala", "主持人×1[主持] 摄影师×1[摄影]"},
		{"公众号粉丝涨不动了，需要一个懂新媒体的人，顺便写几篇爆款", "推广负责人×1[市场推广] 文案撰写×1[文案写作]"},
		{"帮忙找一个人做PPT，下周要给投资人路演", "平面设计师×1[平面设计]"},
		{"技术沙龙需要茶歇和签到志愿者两名", "餐饮供应商×1[餐饮服务] 现场志愿者×2[志愿者]"},
		{"筹款晚会需要主持人和晚宴", "主持人×1[主持] 餐饮供应商×1[餐饮服务]"},
		{"想办一场交流会，需要一个咖啡馆包场", "场地提供者×1[场地提供]"},
		{"需要一位资深HR顾问帮我们搭建薪酬体系", "hr顾问×1[hr顾问]"},
		{"想找一个能帮我们写直播脚本、做直播运营的人", "文案撰写×1[文案写作] 直播技术支持×1[直播]"},
		{"想把公司的旧视频素材剪成一个三分钟的品牌片", "视频剪辑师×1[视频剪辑]"},
		{"需要做一份行业研究报告，需要懂数据的人帮忙收集和分析", "数据分析师×1[数据分析]"},
		{"需要写一篇新闻稿并联系媒体发布", "文案撰写×1[文案写作] 推广负责人×1[市场推广]"},
		{"Need a Python developer to automate our Excel reports", "后端工程师×1[后端开发]"},
		{"Opening an office: need an interior designer and a website", "interior designer×1[interior designer] 前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"新办公室装修，需要一位室内设计师", "室内设计师×1[室内设计师]"},
		{"Organizing a summit: need an event management company and interpreters", "活动策划×1[活动策划] 翻译×1[翻译]"},
		{"下周六办一场露营音乐会，需要帐篷营地和音响", "场地提供者×1[场地提供] 音响设备支持×1[音响设备]"},
		{"想找人给我们的小说写个剧本改编", "文案撰写×1[文案写作]"},
		{"需要做一套电商详情页和主图", "平面设计师×1[平面设计]"},
		{"需要一个人在展会上帮我们发名片和介绍产品", "现场志愿者×1[志愿者]"},
		{"我们需要给海外客户做一份英文的产品介绍视频", "视频剪辑师×1[视频剪辑]"},
		{"Film screening in Beijing: need a cinema room and someone to lead the Q&A", "场地提供者×1[场地提供] 主持人×1[主持]"},
		{"社区医院需要设计易拉宝和招募十名志愿者", "平面设计师×1[平面设计] 现场志愿者×10[志愿者]"},
		{"Our NGO needs someone to design an annual report and translate it into English", "平面设计师×1[平面设计] 翻译×1[翻译]"},
		{"Health talk for seniors: need a speaker, a room for 40 and leaflets printed", "演讲嘉宾×1[演讲嘉宾] 场地提供者×1[场地提供] 物料印刷×1[印刷物料]"},
		{"Open house: need a videographer for a walkthrough and snacks", "摄像师×1[摄像] 餐饮供应商×1[餐饮服务]"},
		{"房产中介要拍一批房源照片和VR看房视频", "摄影师×1[摄影] 摄像师×1[摄像]"},
		{"公益组织需要一个筹款页面和宣传文案", "前端工程师×1[前端开发] 文案撰写×1[文案写作]"},
		{"展览开幕式需要主持人、开幕酒会和现场摄影", "主持人×1[主持] 餐饮供应商×1[餐饮服务] 摄影师×1[摄影]"},
		{"Our indie game needs a composer and a pixel artist", "composer×1[composer] 平面设计师×1[平面设计]"},
		{"给员工做体检宣讲，需要请一位医生讲解，再做几张海报", "医生×1[医生] 平面设计师×1[平面设计]"},
		{"社区需要做展板和发传单的志愿者", "物料印刷×1[印刷物料] 现场志愿者×1[志愿者]"},
		{"新品上市需要写产品文案，再投放朋友圈广告", "文案撰写×1[文案写作] 推广负责人×1[市场推广]"},
		// Chinese with English words.
		{"workshop需要一个host，再来点snacks", "主持人×1[主持] 餐饮供应商×1[餐饮服务]"},
		{"需要一个PM和一个dev", "产品经理×1[产品经理] 前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"我们这边缺个能主持年会的", "主持人×1[主持]"},
		{"周末聚会，想租个厅，管饭的那种", "场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务]"},
		{"急需一个能办50人活动的地儿", "场地提供者×1[场地提供]"},
		{"Want a designer for flyers", "平面设计师×1[平面设计]"},
		{"Require one interpreter (EN-CN) for a 2-day factory audit", "翻译×1[翻译]"},
		{"Can someone build us a simple booking form for our yoga classes?", "前端工程师×1[前端开发]"},
		{"Need a videographer to capture our conference and make a 90-second recap", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"Could use a hand with our seating plan and a calligrapher for place cards", "calligrapher×1[calligrapher]"},
		{"需要一个会日语的导购员", "导购员×1[导购员]"},
		{"给我们的新车发布会找个车模和摄影", "车模×1[车模] 摄影师×1[摄影]"},
		{"找一个会做Excel数据透视表的人帮我整理销售数据", "数据分析师×1[数据分析]"},
		{"We need flyers designed, printed and handed out at the station", "平面设计师×1[平面设计] 物料印刷×1[印刷物料] 现场志愿者×1[志愿者]"},
		{"杭州的民宿需要会无人机航拍的飞手", "无人机×1[无人机]"},
		{"我们要做海外社媒运营，需要会英文的运营和设计", "推广负责人×1[市场推广] 设计师×1[平面设计 UI设计]"},
		{"需要一名UX研究员做可用性测试", "UI设计师×1[UI设计]"},
		{"毕业设计展需要布展志愿者和展品运输", "现场志愿者×1[志愿者] 交通接送×1[交通接送]"},
		{"Need an SEO writer and a social media designer", "文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		{"家长课堂需要一位儿童心理专家来讲，再准备一个礼堂", "儿童心理专家×1[儿童心理专家] 场地提供者×1[场地提供]"},
		{"公司想做一个内部知识库问答机器人，需要懂大模型的工程师", "AI技术顾问×1[AI研究]"},
		{"有没有会做手账和插画的朋友，想做一批文创周边", "物料印刷×1[印刷物料]"},
		{"帮我们整理一份活动的嘉宾名单", "活动策划×1[活动策划]"},
		{"Need a nutritionist to plan meals and a chef to cook them", "nutritionist×1[nutritionist] 餐饮供应商×1[餐饮服务]"},
		{"Looking for someone to do live sketching at our conference", "平面设计师×1[平面设计]"},
		{"Need an event photographer and same-day photo editing", "摄影师×1[摄影]"},
		{"想办一次编程夏令营，需要三位讲师、一个机房和午餐", "演讲嘉宾×3[演讲嘉宾] 场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务]"},
		{"下周有日本客户来访，需要一名日语翻译和一辆七座车", "翻译×1[翻译] 交通接送×1[交通接送]"},
		{"帮我们的新品牌起个名字，再设计logo", "文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		{"Need volunteers to staff the merch table and sell tickets at the door", "现场志愿者×1[志愿者]"},
		{"Looking for a venue for a silent disco and wireless headphones", "场地提供者×1[场地提供] 音响设备支持×1[音响设备]"},
		// A person asked to talk is that person, not a speaker too.
		{"Tax seminar: need an accountant to present and a meeting room for 30", "财务顾问×1[财务] 场地提供者×1[场地提供]"},
		{"Pet expo: need a vet to give talks and printed leaflets", "vet×1[vet] 物料印刷×1[印刷物料]"},
		{"Need someone to give a talk on pet care", "演讲嘉宾×1[演讲嘉宾]"},
		{"Esports viewing party: need a big screen, a caster and snacks", "音响设备支持×1[音响设备] 主持人×1[主持] 餐饮供应商×1[餐饮服务]"},
		{"给公司官网做英文翻译和SEO优化", "翻译×1[翻译] 推广负责人×1[市场推广]"},
		{"我们要做用户访谈，需要招募10位用户和一个会做访谈记录的人", "推广负责人×1[市场推广] 文案撰写×1[文案写作]"},
		{"需要设计一套PPT模板，用于公司内部汇报", "平面设计师×1[平面设计]"},
		{"Nobody comes to our weekend workshops; we need more sign-ups and better flyers", "推广负责人×1[市场推广] 物料印刷×1[印刷物料]"},
		{"We're launching in Japan and nobody on the team speaks Japanese", "翻译×1[翻译]"},
		{"This year we want proper coverage by a photographer", "摄影师×1[摄影]"},
		{"下周三在西安开发布会，需要场地、主持人和签到志愿者四名", "场地提供者×1[场地提供] 主持人×1[主持] 现场志愿者×4[志愿者]"},
		{"需要找人帮忙设计活动的签到流程", "活动策划×1[活动策划]"},
		{"在经济开发区办一场招商会，需要主持人和场地", "主持人×1[主持] 场地提供者×1[场地提供]"},
		{"房地产开发商要办业主答谢会，需要主持人", "主持人×1[主持]"},
		{"找个能吃苦耐劳的志愿者", "现场志愿者×1[志愿者]"},
		{"我们是做餐饮管理系统的，需要一个前端", "前端工程师×1[前端开发]"},
		{"需要一个视频剪辑师，剪一下吃播视频", "视频剪辑师×1[视频剪辑]"},
		// Trades' words inside common phrases.
		{"Need an experienced photographer with a strong track record", "摄影师×1[摄影]"},
		{"There's room for 50 people at our office; we need a caterer", "餐饮供应商×1[餐饮服务]"},
		{"We'd love to talk to a lawyer about our lease", "法律顾问×1[法律咨询]"},
		{"Need someone to talk to our students about careers in AI", "演讲嘉宾×1[演讲嘉宾]"},
		{"Need a space-themed party host for kids", "主持人×1[主持]"},
		{"Need a UI designer who has worked on fintech apps before", "UI设计师×1[UI设计]"},
		{"We want a videographer, budget is tax-included", "摄像师×1[摄像]"},
		{"需要设计师，不要程序员", "UI设计师×1[UI设计]"},
		{"需要一位懂行的律师，不是财务", "法律顾问×1[法律咨询]"},
		{"需要一个场地，场地不要太远", "场地提供者×1[场地提供]"},
		{"Need a photographer but not a videographer", "摄影师×1[摄影]"},
		{"Need either a venue or someone who can lend us their office", "场地提供者×1[场地提供]"},
		// A count of persons after a word for a person; a vehicle by its
		// measure word, whatever it carries; a page to make; a studio.
		{"公益跑在厦门，需要补给站志愿者20人", "现场志愿者×10[志愿者]"},
		{"婚礼当天需要八辆婚车", "交通接送×1[交通接送]"},
		{"乐队巡演需要调音师和一辆拉设备的车", "音响设备支持×1[音响设备] 交通接送×1[交通接送]"},
		{"带团去西藏，需要一辆越野车", "交通接送×1[交通接送]"},
		{"给山区孩子募捐，需要做一个募捐页面", "前端工程师×1[前端开发]"},
		{"Looking for a studio to shoot a podcast in Beijing", "场地提供者×1[场地提供]"},
		{"Need a design studio to redo our logo", "平面设计师×1[平面设计]"},
		{"Open house in Suzhou: need a photographer and someone to bake cookies", "摄影师×1[摄影] 餐饮供应商×1[餐饮服务]"},
		{"Need two cooks and a banner for the night market", "餐饮供应商×2[餐饮服务] 物料印刷×1[印刷物料]"},
		{"小区邻里节要搞个百家宴，需要一套音响", "餐饮供应商×1[餐饮服务] 音响设备支持×1[音响设备]"},
		{"新品发布会需要主持人和媒体邀约", "主持人×1[主持] 推广负责人×1[市场推广]"},
		{"新楼盘开盘需要一批宣传折页", "物料印刷×1[印刷物料]"},
		{"招聘季还得有人写岗位JD", "文案撰写×1[文案写作]"},
		// An app or a site to design is a UI designer's, not its builders'.
		{"Need someone to design our app", "UI设计师×1[UI设计]"},
		{"需要人设计一下我们的App", "UI设计师×1[UI设计]"},
		{"Need someone to design and build our website", "UI设计师×1[UI设计] 前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"Need someone to put together a pitch deck and help with the financial model", "平面设计师×1[平面设计] 财务顾问×1[财务]"},
		{"Need a UX researcher to run five user interviews", "UI设计师×1[UI设计]"},
		{"Organising a book club: need a cozy space and someone to lead discussions", "场地提供者×1[场地提供] 主持人×1[主持]"},
		{"公司要做ESG报告，需要人写报告和做数据分析", "文案撰写×1[文案写作] 数据分析师×1[数据分析]"},
		{"需要几个人帮忙搬东西布置会场", "现场志愿者×2[志愿者]"},
		{"小程序需要加一个支付功能", "后端工程师×1[后端开发]"},
		{"活动需要设计一套PPT，还要准备嘉宾的接送", "平面设计师×1[平面设计] 交通接送×1[交通接送]"},
		// What 把 acts on before another trade's verb leaves its trade to
		// the next word; a 的 phrase after what a person can do is their
		// work; promotion says what a video to shoot is for.
		{"帮我找个人把这份合同翻成英文，还要一个律师", "翻译×1[翻译] 法律顾问×1[法律咨询]"},
		{"需要一个会做英文详情页的设计师", "平面设计师×1[平面设计]"},
		{"成都的火锅店想找人拍探店视频", "摄像师×1[摄像]"},
		{"奶茶店还要设计一套新的杯子和包装", "平面设计师×1[平面设计]"},
		{"学校要办科技节，需要一批奖状，还要有人把现场拍下来", "物料印刷×1[印刷物料] 摄影师×1[摄影]"},
		{"我们乐队要录一张EP，还想拍个MV", "摄像师×1[摄像]"},
		{"需要有人把访谈录音整理成文字，再做个分析报告", "文案撰写×1[文案写作] 数据分析师×1[数据分析]"},
		{"Need someone to shoot and edit a 3-minute company profile video", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"International forum: need interpreters and interpretation equipment", "翻译×1[翻译] 音响设备支持×1[音响设备]"},
		{"Product launch: need a host and media coverage", "主持人×1[主持] 推广负责人×1[市场推广]"},
		// What other work acts on, and promotion that says what a thing is
		// for, leave their trades to the trades' next words.
		{"Translating our user manual into German; we also need a copywriter for the blog", "翻译×1[翻译] 文案撰写×1[文案写作]"},
		{"Need posters and catalogues printed, and a designer for the poster", "物料印刷×1[印刷物料] 平面设计师×1[平面设计]"},
		{"Need help analyzing app reviews and an app developer to fix the bugs", "数据分析师×1[数据分析] 前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"需要宣传海报，还要推广", "平面设计师×1[平面设计] 推广负责人×1[市场推广]"},
		// Things settled are not asked for; a count of persons after a
		// place counts its guests; 双十一 is no count.
		{"下周三的发布会，场地和主持都定了，就差直播和摄影", "直播技术支持×1[直播] 摄影师×1[摄影]"},
		{"Conference next month — venue booked. Still need: 3 speakers and lunch for 100", "演讲嘉宾×3[演讲嘉宾] 餐饮供应商×1[餐饮服务]"},
		{"Need a venue booked for Saturday", "场地提供者×1[场地提供]"},
		{"公司内部黑客松，场地用公司的，需要评委三名和夜宵", "评委×3[演讲嘉宾 AI研究 产品经理] 餐饮供应商×1[餐饮服务]"},
		{"年会筹备：1. 场地（300人） 2. 主持人", "场地提供者×1[场地提供] 主持人×1[主持]"},
		{"招募：志愿者若干、翻译两名", "现场志愿者×1[志愿者] 翻译×2[翻译]"},
		{"要做双十一的活动页和预热视频", "前端工程师×1[前端开发] 视频剪辑师×1[视频剪辑]"},
		{"想请人给新品写个slogan", "文案撰写×1[文案写作]"},
		{"活动还缺一个拍花絮的", "摄像师×1[摄像]"},
		{"Can someone help us plan a team-building day for 30 people and book a bus?", "活动策划×1[活动策划] 交通接送×1[交通接送]"},
		// Words of the trades in English as people write them.
		{"Need a basketball court for a tournament", "场地提供者×1[场地提供]"},
		{"Need a TV presenter for our gala", "主持人×1[主持]"},
		{"Need some pics of our new store and a video crew", "摄影师×1[摄影] 摄像师×1[摄像]"},
		{"Need an aftermovie of our festival", "视频剪辑师×1[视频剪辑]"},
		{"Need to go live on YouTube during the launch", "直播技术支持×1[直播]"},
		{"Need a React developer and a Django developer", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"Need a WordPress site", "前端工程师×1[前端开发]"},
		{"Need someone to fine-tune a language model and a product owner", "AI技术顾问×1[AI研究] 产品经理×1[产品经理]"},
		{"Need a visual identity for our startup", "平面设计师×1[平面设计]"},
		{"Need stewards for the marathon and a brunch for 30", "现场志愿者×1[志愿者] 餐饮供应商×1[餐饮服务]"},
		// Words of the trades in Chinese as people write them; an
		// invoice to issue (开发票) asks for no developer.
		{"需要租一个篮球场，还要一家活动公司", "场地提供者×1[场地提供] 活动策划×1[活动策划]"},
		{"需要一个懂AI的和一块LED大屏", "AI技术顾问×1[AI研究] 音响设备支持×1[音响设备]"},
		{"需要开发票，还要做工资表", "财务顾问×1[财务]"},
		{"需要做一批工作证，再找个会剪映的", "物料印刷×1[印刷物料] 视频剪辑师×1[视频剪辑]"},
		{"需要校对英文稿", "文案撰写×1[文案写作]"},
		// People asked to help, as people say it.
		{"需要四个学生来帮忙", "现场志愿者×4[志愿者]"},
		{"需要两三个人搭把手，再找几个打杂的", "现场志愿者×3[志愿者]"},
		{"需要临时工4人", "现场志愿者×4[志愿者]"},
		{"Need 4 students to help at the registration desk", "现场志愿者×4[志愿者]"},
		{"We need 4 people on the door", "现场志愿者×4[志愿者]"},
		// Sound people by the studio's words; designers of things nobody in
		// the network designs; the work of a person of no trade named
		// right before it is theirs.
		{"乐队录EP需要一位混音师和一位录音师", "音响设备支持×1[音响设备]"},
		{"需要一位服装设计师和一位美术编辑", "服装设计师×1[服装设计师] 平面设计师×1[平面设计]"},
		{"需要一位品牌经理", "推广负责人×1[市场推广]"},
		{"需要四个人维持秩序", "现场志愿者×4[志愿者]"},
		{"需要导游带路，还要一辆大巴", "导游×1[导游] 交通接送×1[交通接送]"},
		// 拍摄 of a video is a camera operator's; what photos show after
		// "of the"; 引导游客 holds no 导游.
		{"宠物店想拍一条抖音短视频，需要人拍摄，再找人剪辑加字幕", "视频剪辑师×1[视频剪辑] 摄像师×1[摄像]"},
		{"新店开业需要人拍摄门店照片", "摄影师×1[摄影]"},
		{"Our bakery wants photos of the cakes for Instagram", "摄影师×1[摄影]"},
		{"青岛的啤酒节需要十个志愿者帮忙引导游客", "现场志愿者×10[志愿者]"},
		{"上海的咖啡节要找人做一套导视设计，顺便美化一下PPT", "平面设计师×1[平面设计]"},
		{"Alumni reunion in Nanjing: need a restaurant for 80 and a photographer", "场地提供者×1[场地提供] 摄影师×1[摄影]"},
		{"Corporate retreat: need a bus and someone to run team games", "交通接送×1[交通接送] 活动策划×1[活动策划]"},
		{"Yoga retreat in Dali: need a vegetarian chef", "餐饮供应商×1[餐饮服务]"},
		// Work asked for by its participle, regular or not, beside another
		// participle; 会员 ends no role noun.
		{"Need to get our logo redone and business cards printed", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"Need to have the event filmed and streamed", "摄像师×1[摄像] 直播技术支持×1[直播]"},
		{"Need our talks recorded and edited into short clips", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"Need our office party catered and the product photographed", "餐饮供应商×1[餐饮服务] 摄影师×1[摄影]"},
		{"老师要录一门网课，需要人帮忙录课和剪辑", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"新开的健身房需要拍宣传照、做会员卡", "摄影师×1[摄影] 物料印刷×1[印刷物料]"},
		{"音乐节需要售票系统和安检志愿者", "后端工程师×1[后端开发] 现场志愿者×1[志愿者]"},
		{"Need help with market research and an Excel wizard", "数据分析师×1[数据分析]"},
		{"需要有人帮忙做一下行程规划，再做一套课件", "活动策划×1[活动策划] 平面设计师×1[平面设计]"},
		// A keyword begun inside an earlier one names nothing there.
		{"谁有好的场地推荐？50人左右的沙龙", "场地提供者×1[场地提供]"},
		{"找一个负责现场执行的人，再求一个PPT高手", "活动策划×1[活动策划] 平面设计师×1[平面设计]"},
		// The skill of anyone asked for is the need; a team named by
		// another trade's word is no worker of this one's.
		{"Need someone familiar with Chinese labor law", "法律顾问×1[法律咨询]"},
		{"Need someone good with Excel and someone who can film and edit", "数据分析师×1[数据分析] 摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"Need a translation team for our conference", "翻译×1[翻译]"},
		{"Need someone who codes in Python", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"需要一个有车的人，再找一个擅长Excel的人", "交通接送×1[交通接送] 数据分析师×1[数据分析]"},
		{"Need a pair of hands to carry equipment and a friendly face at reception", "现场志愿者×1[志愿者]"},
		// A worker is no participle's object; rooms counted are no venues
		// counted; a video to shoot in English is the camera's.
		{"Community choir concert in Nanjing: need a hall, a sound tech and programs printed", "场地提供者×1[场地提供] 音响设备支持×1[音响设备] 物料印刷×1[印刷物料]"},
		{"Medical conference: need a venue with 3 rooms", "场地提供者×1[场地提供]"},
		{"Farm stay: need someone to shoot short videos", "摄像师×1[摄像]"},
		{"E-commerce store: need listing copy in English and ads management", "文案撰写×1[文案写作] 推广负责人×1[市场推广]"},
		// Invitations to design; a booth to build; words written, a
		// budget sheet, socials, stories told to children.
		{"年会想请个乐队，再找人设计邀请函", "乐队×1[乐队] 平面设计师×1[平面设计]"},
		{"下个月去日本参展，需要一个日语翻译和展台搭建", "翻译×1[翻译] 音响设备支持×1[音响设备]"},
		{"想做一本纪念册，需要人写文字和拍照片", "物料印刷×1[印刷物料] 文案撰写×1[文案写作] 摄影师×1[摄影]"},
		{"需要写一份活动策划案，再做一份预算表", "活动策划×1[活动策划] 财务顾问×1[财务]"},
		{"想请一个人给孩子们讲绘本", "演讲嘉宾×1[演讲嘉宾]"},
		{"Need a copywriter who can also manage our socials", "文案撰写×1[文案写作] 推广负责人×1[市场推广]"},
		// A pattern's hit beside a keyword's is no overlap; an event to
		// shoot, capture or cover; a video to record.
		{"婚礼需要全程跟拍和剪辑", "摄影师×1[摄影] 摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"需要有人全程记录活动，再拍一支广告", "摄像师×1[摄像]"},
		{"Need someone to shoot the event", "摄影师×1[摄影]"},
		{"Need the conference documented and a shooter for the wedding", "摄影师×1[摄影]"},
		{"Need event coverage: photo and video", "摄影师×1[摄影] 摄像师×1[摄像]"},
		// A designer by the bare word is a graphic designer before a
		// printed thing, and before a comma and the work; an app's screens
		// are a UI designer's.
		{"需要一个设计师做宣传物料", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"需要一个设计师，做公众号封面", "平面设计师×1[平面设计]"},
		{"需要设计做一下产品包装", "平面设计师×1[平面设计]"},
		{"需要一个设计师做App界面", "UI设计师×1[UI设计]"},
		// Work said as people say it, with no trade's name.
		{"需要一个人上台讲讲公司的故事", "演讲嘉宾×1[演讲嘉宾]"},
		{"需要一个人帮我们把活动从头到尾张罗起来", "活动策划×1[活动策划]"},
		{"需要有人帮忙涨粉，再帮我们做内容", "推广负责人×1[市场推广] 文案撰写×1[文案写作]"},
		{"需要有人对接外国客户，再帮忙算一下成本", "翻译×1[翻译] 财务顾问×1[财务]"},
		{"需要有人看看我们的用户数据，再训练一个分类模型", "数据分析师×1[数据分析] AI技术顾问×1[AI研究]"},
		{"Need someone to say a few words at the opening and someone to fix bugs on our site", "演讲嘉宾×1[演讲嘉宾] 前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		// A place by what it holds or is like (not a point to improve);
		// guests taken somewhere and people fed are no needs.
		{"需要一个能坐100人的地方", "场地提供者×1[场地提供]"},
		{"需要一个安静的地方开会", "场地提供者×1[场地提供]"},
		{"这份方案还有需要改进的地方，想找个文案", "文案撰写×1[文案写作]"},
		{"需要把嘉宾从酒店送到会场", "交通接送×1[交通接送]"},
		{"需要外卖送到会场，再找物流把展品运过去", "餐饮供应商×1[餐饮服务] 交通接送×1[交通接送]"},
		{"Need to feed 200 volunteers", "餐饮供应商×1[餐饮服务]"},
		{"Need somewhere quiet for a board meeting, and some fruit and pastries", "场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务]"},
		{"Need a caterer for the staff outing", "餐饮供应商×1[餐饮服务]"},
		// Invitations, menus, signs and tickets to design; booth signs.
		{"Organising a charity dinner in Beijing for 120 guests. Venue is booked. Still need a caterer and someone to design the invitations.", "餐饮供应商×1[餐饮服务] 平面设计师×1[平面设计]"},
		{"Career fair in Wuhan: need a sound system and printed booth signs", "音响设备支持×1[音响设备] 物料印刷×1[印刷物料]"},
		// The writer's own place, after opening or running it; a booth
		// designed and built is no app; doctors to give talks are doctors;
		// the people a meal is for are no need.
		{"想开一家社区咖啡馆，需要有人设计logo和菜单", "平面设计师×1[平面设计]"},
		{"We're opening a co-working space in Hangzhou and need a logo", "平面设计师×1[平面设计]"},
		{"参加美博会还需要展台设计和搭建", "平面设计师×1[平面设计]"},
		{"Medical education day: we need two doctors to give talks and lunch for 80 nurses", "doctor×2[doctor] 餐饮供应商×1[餐饮服务]"},
		// A count before a participle counts things; a report designed;
		// record and edit; a bar that can host; a band wanted (想要).
		{"Annual report launch in Beijing: need the report designed and 200 copies printed", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"Need someone to record and edit our product demo", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"Language exchange night: need a bar that can host 50", "场地提供者×1[场地提供]"},
		{"南京的婚礼想要一个乐队", "乐队×1[乐队]"},
		{"北京的读书会想找人设计一套会员卡，再给每个孩子准备奖牌", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"Book signing: need someone to sell books at the table", "现场志愿者×1[志愿者]"},
		// Counts as people write them: ranges, dozens, words, "or so", a
		// count of persons after a trade's word (not a place's).
		{"Need up to 6 volunteers and 2 to 3 translators", "现场志愿者×6[志愿者] 翻译×3[翻译]"},
		{"Need half a dozen volunteers", "现场志愿者×6[志愿者]"},
		{"Need 15 or so volunteers and twenty ushers", "现场志愿者×10[志愿者]"},
		{"需要摄影2人，场地200人", "摄影师×2[摄影] 场地提供者×1[场地提供]"},
		// Counts after the role; the people a trainer teaches are whom
		// the demand is for; "another" is no role noun.
		{"Need volunteers: around 8", "现场志愿者×8[志愿者]"},
		{"Need volunteers, 8 in total", "现场志愿者×8[志愿者]"},
		{"志愿者还缺3个", "现场志愿者×3[志愿者]"},
		{"Need a trainer to teach 30 staff", "trainer×1[trainer]"},
		{"Need another 2 volunteers", "现场志愿者×2[志愿者]"},
		// A count after 的 before a measure word for persons; part-timers
		// who come to help; hundreds.
		{"需要负责签到的三个人", "现场志愿者×3[志愿者]"},
		{"需要两个兼职帮忙发传单", "现场志愿者×2[志愿者]"},
		{"需要一百名志愿者", "现场志愿者×10[志愿者]"},
		{"需要海报的三个版本", "平面设计师×1[平面设计]"},
		// A full-stack developer is one person; firms by their trade.
		{"需要一个全栈开发", "全栈工程师×1[前端开发 后端开发]"},
		{"Need a full-stack developer", "全栈工程师×1[前端开发 后端开发]"},
		{"需要一个技术合伙人，再找一家律所", "后端工程师×1[后端开发] 法律顾问×1[法律咨询]"},
		{"Need an events company in Shanghai and a production company for a TV ad", "活动策划×1[活动策划] 摄像师×1[摄像]"},
		{"Need an agency to run our ads", "推广负责人×1[市场推广]"},
		// Trades by people's short names for them.
		{"Need F&B for 100 guests and a VJ", "餐饮供应商×1[餐饮服务] 音响设备支持×1[音响设备]"},
		{"Need a numbers person and a wordsmith", "数据分析师×1[数据分析] 文案撰写×1[文案写作]"},
		{"需要一个搞运营的", "推广负责人×1[市场推广]"},
		// A guide or a docent is a person nobody in the network is, asked
		// for (a demand for one alone had been refused as unclear).
		{"Need a guide for the museum tour", "guide×1[guide]"},
		{"Need a bus, a guide and someone to take photos", "交通接送×1[交通接送] guide×1[guide] 摄影师×1[摄影]"},
		// A recommendation asked for is no promotion; 接个机.
		{"帮忙推荐个翻译呗", "翻译×1[翻译]"},
		{"有人能帮忙接个机吗", "交通接送×1[交通接送]"},
		// A wish list asks too.
		{"Our wishlist: a venue, a caterer, and a band", "场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务] band×1[band]"},
		// A place lacking is a venue asked for.
		{"想在北京搞个AI主题的小聚会，缺个地方，还要请几位嘉宾来分享", "场地提供者×1[场地提供] 演讲嘉宾×2[演讲嘉宾]"},
		// The dev half's demands said another way.
		{"Small AI meetup in Beijing next month, looking for a space and a couple of people to speak", "场地提供者×1[场地提供] 演讲嘉宾×2[演讲嘉宾]"},
		{"Our SaaS needs someone for the backend and someone to own the product, remote ok", "后端工程师×1[后端开发] 产品经理×1[产品经理]"},
		{"Corporate video in Shanghai: need someone behind the camera and someone to cut it", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"Business meeting in Guangzhou, Chinese and English: need someone to interpret", "翻译×1[翻译]"},
		{"Corporate training for 40 staff on product management: need an experienced PM to run it", "产品经理×1[产品经理]"},
		{"Shenzhen launch: a copywriter and a packaging designer", "文案撰写×1[文案写作] 平面设计师×1[平面设计]"},
		{"Hangzhou company dinner for 120 on Friday: catering and a PA for speeches", "餐饮供应商×1[餐饮服务] 音响设备支持×1[音响设备]"},
		// The dev half's demands said another way, in Chinese.
		{"上海周末有个产品经理的交流局，五十来人，找个地儿、找个控场的，再来点茶点", "场地提供者×1[场地提供] 主持人×1[主持] 餐饮供应商×1[餐饮服务]"},
		{"杭州办喜事，下个月，要司仪、要跟拍视频、还要酒席", "主持人×1[主持] 摄像师×1[摄像] 餐饮供应商×1[餐饮服务]"},
		{"开源项目想整个新官网，缺设计缺前端", "前端工程师×1[前端开发] 设计师×1[平面设计 UI设计]"},
		{"广州义卖，要五个帮忙的，还想拍个小片子", "现场志愿者×5[志愿者] 摄像师×1[摄像]"},
		{"Beijing AI meetup: we need a room and two people to give talks", "场地提供者×1[场地提供] 演讲嘉宾×2[演讲嘉宾]"},
		{"Chengdu photo exhibition opening: a space, someone to shoot it, and refreshments", "场地提供者×1[场地提供] 摄影师×1[摄影] 餐饮供应商×1[餐饮服务]"},
		// People asked to talk of their experience are speakers; a
		// specialist who comes to talk is that specialist.
		{"校招宣讲会需要一个能坐两百人的礼堂，再邀请两位前辈讲讲职业经验", "场地提供者×1[场地提供] 演讲嘉宾×2[演讲嘉宾]"},
		{"再请个农业专家来讲讲经验", "农业专家×1[农业专家]"},
		{"Hospital education campaign: health articles written and short explainer videos edited", "文案撰写×1[文案写作] 视频剪辑师×1[视频剪辑]"},
		// A host as a list's item; a writer who comes to share is a
		// writer; a booth to set up is a helper's.
		{"Client appreciation dinner: venue, host and gift bags", "餐饮供应商×1[餐饮服务] 场地提供者×1[场地提供] 主持人×1[主持] 物料印刷×1[印刷物料]"},
		{"Our company hosts a meetup: need a venue", "场地提供者×1[场地提供]"},
		{"读书会需要一位作家来分享，再准备些茶水", "作家×1[作家] 餐饮供应商×1[餐饮服务]"},
		{"外贸公司参加广交会，需要会西班牙语的翻译和展位布置", "翻译×1[翻译] 现场志愿者×1[志愿者]"},
		{"初创公司要做融资，需要一份BP和一个财务顾问", "文案撰写×1[文案写作] 财务顾问×1[财务]"},
		// A concert hall; a guide in Chinese; 手语 holds no 会手.
		{"我们乐团要办新年音乐会，需要一个音乐厅和海报", "场地提供者×1[场地提供] 平面设计师×1[平面设计]"},
		{"需要一个能讲中文的法国向导", "向导×1[向导]"},
		{"需要会手语的志愿者两名", "现场志愿者×2[志愿者]"},
		{"Need an after-party venue near the Bund", "场地提供者×1[场地提供]"},
		{"需要一个靠谱的PR团队", "推广负责人×1[市场推广]"},
		{"找个管账的", "财务顾问×1[财务]"},
		{"谁能帮我们开车接人", "交通接送×1[交通接送]"},
		{"需要人拍个vlog", "摄像师×1[摄像]"},
		{"我们想让更多年轻人知道这个展览", "推广负责人×1[市场推广]"},
		{"发布会的PPT太丑了，想找人改改", "平面设计师×1[平面设计]"},
		{"嘉宾从机场到会场不知道怎么走，需要安排", "交通接送×1[交通接送]"},
		{"想办个小型音乐会，声音效果要好", "音响设备支持×1[音响设备]"},
		{"展会那几天需要人在展位帮忙", "现场志愿者×1[志愿者]"},
		{"We want more people to show up to our meetup", "推广负责人×1[市场推广]"},
		{"We have no idea why users are churning", "数据分析师×1[数据分析]"},
		{"Could use a hand setting up chairs and tables before the event", "现场志愿者×1[志愿者]"},
		{"我们社区想搞一个跳蚤市场，需要摊位和一些帮忙收摊的人", "场地提供者×1[场地提供] 现场志愿者×1[志愿者]"},
		{"婚礼需要一个证婚人讲几句话，再找个跟妆", "演讲嘉宾×1[演讲嘉宾]"},
		{"要在西安开一个线下读者见面会，需要一家书店和一个主持", "场地提供者×1[场地提供] 主持人×1[主持]"},
		{"周年庆要做一面签名墙，还需要礼品和抽奖道具", "物料印刷×1[印刷物料]"},
		{"公司要搬家，需要搬家公司和车", "交通接送×1[交通接送]"},
		{"深圳一个创业者沙龙，找两位分享嘉宾和一个记录的", "演讲嘉宾×2[演讲嘉宾] 文案撰写×1[文案写作]"},
		{"Requesting quotes for 500 custom tote bags", "物料印刷×1[印刷物料]"},
		{"需要500个帆布袋", "物料印刷×1[印刷物料]"},
		{"Searching for an English-speaking tour guide in Xi'an", "tour guide×1[tour guide]"},
		{"Need help with: logo, website, launch video", "平面设计师×1[平面设计] 前端工程师×1[前端开发] 后端工程师×1[后端开发] 视频剪辑师×1[视频剪辑]"},
		{"We need the interviews transcribed", "文案撰写×1[文案写作]"},
		{"I'm a PhD student organizing a small workshop in Beijing next spring; we have the room, but need two keynote speakers and someone to handle registration", "演讲嘉宾×2[演讲嘉宾] 现场志愿者×1[志愿者]"},
		{"我在成都开了一家民宿，想重新拍一套房间照片，顺便把小红书运营起来", "摄影师×1[摄影] 推广负责人×1[市场推广]"},
		{"Our church is running a food drive and could use about a dozen volunteers plus a truck to collect donations", "现场志愿者×10[志愿者] 交通接送×1[交通接送]"},
		{"I teach at a university and want to turn my lectures into an online course: I need someone to film them and edit the videos", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		{"I'm organizing a reunion for my high school class, about 60 people, in Guangzhou, and need a restaurant and a photographer", "场地提供者×1[场地提供] 摄影师×1[摄影]"},
		{"摄影摄像各一名", "摄影师×1[摄影] 摄像师×1[摄像]"},
		{"需要摄影摄像各两位", "摄影师×2[摄影] 摄像师×2[摄像]"},
		{"需要一位跟拍摄像", "摄像师×1[摄像]"},
		{"需要一位AI工程师", "AI技术顾问×1[AI研究]"},
		{"需要一位大模型工程师", "AI技术顾问×1[AI研究]"},
		{"需要一位产品负责人", "产品经理×1[产品经理]"},
		{"需要一位文案策划", "文案撰写×1[文案写作]"},
		{"需要一位展板制作", "物料印刷×1[印刷物料]"},
		{"Need a conference center", "场地提供者×1[场地提供]"},
		{"Need an event producer", "活动策划×1[活动策划]"},
		{"Need a video shooter", "摄像师×1[摄像]"},
		{"Need a graphic artist", "平面设计师×1[平面设计]"},
		{"Need a paralegal", "法律顾问×1[法律咨询]"},
		{"Need a sign maker", "物料印刷×1[印刷物料]"},
		{"Remote team of 8 needs a product manager and two backend developers", "产品经理×1[产品经理] 后端工程师×2[后端开发]"},
		{"青岛啤酒节的志愿者招募，需要50人", "现场志愿者×10[志愿者]"},
		{"Ushers wanted. We need 12 people.", "现场志愿者×10[志愿者]"},
		{"年会，需要200人，找个主持", "主持人×1[主持]"},
		{"Shanghai art fair: need booth designers, printed catalogues and a photographer", "平面设计师×1[平面设计] 物料印刷×1[印刷物料] 摄影师×1[摄影]"},
		{"Online course launch: need a video editor, a copywriter and ads", "视频剪辑师×1[视频剪辑] 文案撰写×1[文案写作] 推广负责人×1[市场推广]"},
		{"场地我们自己有，缺摄影和茶歇", "摄影师×1[摄影] 餐饮供应商×1[餐饮服务]"},
		{"不用找场地了，公司有会议室，需要一位讲者", "演讲嘉宾×1[演讲嘉宾]"},
		{"We have our own AV team, so just a livestream crew please", "直播技术支持×1[直播]"},
		{"我们有一个活动需要场地", "场地提供者×1[场地提供]"},
		{"我们有50人，需要一个场地", "场地提供者×1[场地提供]"},
		{"学校有礼堂，需要音响", "音响设备支持×1[音响设备]"},
		{"需要一个能写代码的AI研究员", "AI技术顾问×1[AI研究]"},
		{"找一个会做详情页的设计师", "平面设计师×1[平面设计]"},
		{"需要一个会剪视频的摄影师", "摄影师×1[摄影]"},
		{"周末市集需要摊主招募和现场布置", "推广负责人×1[市场推广] 现场志愿者×1[志愿者]"},
		{"产品上线前需要一轮可用性测试", "UI设计师×1[UI设计]"},
		{"想请一家公司负责整场活动的执行", "活动策划×1[活动策划]"},
		{"需要给100位来宾准备午餐", "餐饮供应商×1[餐饮服务]"},
		{"需要两名司机", "交通接送×2[交通接送]"},
		{"需要三位厨师", "餐饮供应商×3[餐饮服务]"},
		{"需要两辆大巴", "交通接送×1[交通接送]"},
		{"Need 3 drivers", "交通接送×3[交通接送]"},
		{"Alumni dinner in Guangzhou: need a restaurant for 80 and a photographer", "场地提供者×1[场地提供] 摄影师×1[摄影]"},
		{"Science outreach day for kids: need 3 presenters and 6 helpers", "演讲嘉宾×3[演讲嘉宾] 现场志愿者×6[志愿者]"},
		{"Venue: need one in Shanghai with a projector", "场地提供者×1[场地提供] 音响设备支持×1[音响设备]"},
		{"Catering: need someone for 50 people", "餐饮供应商×1[餐饮服务]"},
		{"Esports tournament in Shanghai: need two casters, a stream producer and a stage", "主持人×2[主持] 直播技术支持×1[直播]"},
		{"Farmers market in Chengdu: need stall signage, a sound system and a few helpers", "物料印刷×1[印刷物料] 音响设备支持×1[音响设备] 现场志愿者×3[志愿者]"},
		{"Need a handful of volunteers", "现场志愿者×3[志愿者]"},
		{"谁能帮我们拍一下活动", "摄影师×1[摄影]"},
		{"帮我写个活动通知", "文案撰写×1[文案写作]"},
		{"帮我们算算这次活动花了多少钱", "财务顾问×1[财务]"},
		{"帮忙看看这份协议有没有坑", "法律顾问×1[法律咨询]"},
		{"帮忙查一下我们的用户为什么流失", "数据分析师×1[数据分析]"},
		{"帮忙做个用户访谈", "UI设计师×1[UI设计]"},
		{"Can someone snap a few pics at our party?", "摄影师×1[摄影]"},
		{"Could anyone cut this footage down to 2 minutes?", "视频剪辑师×1[视频剪辑]"},
		{"Can you put this into Spanish for us?", "翻译×1[翻译]"},
		{"Can someone pick our guests up from the station?", "交通接送×1[交通接送]"},
		{"Could someone write up a short event announcement?", "文案撰写×1[文案写作]"},
		{"Can someone dig into why signups dropped?", "数据分析师×1[数据分析]"},
		{"Can someone help decorate the venue?", "现场志愿者×1[志愿者]"},
		{"Can someone help translate our app?", "翻译×1[翻译]"},
		{"Can someone stream it live?", "直播技术支持×1[直播]"},
		{"Can someone come up with an event plan?", "活动策划×1[活动策划]"},
		{"找一个负责接待的", "现场志愿者×1[志愿者]"},
		{"Need someone handling registration and someone doing photos", "现场志愿者×1[志愿者] 摄影师×1[摄影]"},
		{"Need a person in charge of sound", "音响设备支持×1[音响设备]"},
		{"We need hands for setup as well as a photographer", "现场志愿者×1[志愿者] 摄影师×1[摄影]"},
		{"Need a DJ, and also someone to run the lights", "音响设备支持×1[音响设备]"},
		{"需要一个剧场", "场地提供者×1[场地提供]"},
		{"找一家民宿，还要大巴", "场地提供者×1[场地提供] 交通接送×1[交通接送]"},
		{"需要租一块草坪办婚礼", "场地提供者×1[场地提供]"},
		{"我们需要一个地点和一个主持人", "场地提供者×1[场地提供] 主持人×1[主持]"},
		{"在博物馆附近，需要一个摄影师", "摄影师×1[摄影]"},
		{"需要奶茶和甜点", "餐饮供应商×1[餐饮服务]"},
		{"需要摆渡车", "交通接送×1[交通接送]"},
		{"需要X展架和桌卡", "物料印刷×1[印刷物料]"},
		{"需要宣传彩页", "物料印刷×1[印刷物料]"},
		{"需要功放和耳返", "音响设备支持×1[音响设备]"},
		{"需要修片", "摄影师×1[摄影]"},
		{"Need a barn for Saturday", "场地提供者×1[场地提供]"},
		{"Need a wine bar for Saturday", "场地提供者×1[场地提供]"},
		{"We want to book a courtyard and some sushi for 40", "场地提供者×1[场地提供] 餐饮供应商×1[餐饮服务]"},
		{"Need a gallery and a photographer", "场地提供者×1[场地提供] 摄影师×1[摄影]"},
		{"We had our party at a brewery last year; need a photographer", "摄影师×1[摄影]"},
		{"We need dim sum and juice for 50 guests", "餐饮供应商×1[餐饮服务]"},
		{"Need a limo and movers", "交通接送×1[交通接送]"},
		{"Our checkout is broken, need someone to fix it", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"Need someone to integrate Stripe payments", "后端工程师×1[后端开发]"},
		{"Need someone to set up CI/CD", "后端工程师×1[后端开发]"},
		{"Need someone to build a Chrome extension", "前端工程师×1[前端开发]"},
		{"需要有人帮我们把服务迁到云上", "后端工程师×1[后端开发]"},
		{"需要有人做个浏览器插件", "前端工程师×1[前端开发]"},
		{"Need someone for the photos and someone for the music", "摄影师×1[摄影] 音响设备支持×1[音响设备]"},
		{"Need a person for the door", "现场志愿者×1[志愿者]"},
		{"Need someone for the books", "财务顾问×1[财务]"},
		{"找个人管照片，再找个人管音乐", "摄影师×1[摄影] 音响设备支持×1[音响设备]"},
		{"找个人管门口", "现场志愿者×1[志愿者]"},
		{"找个人管社交媒体", "推广负责人×1[市场推广]"},
		{"我们学校要办一场校园招聘会，需要布置展位、印刷宣传册，还要十几个学生志愿者帮忙引导。", "现场志愿者×10[志愿者] 物料印刷×1[印刷物料]"},
		{"需要三个大学生志愿者", "现场志愿者×3[志愿者]"},
		{"Small nonprofit in Hangzhou planning a charity fun run next month. Need 30 volunteers, printed race bibs, a sound system for the start line and a photographer.", "现场志愿者×10[志愿者] 物料印刷×1[印刷物料] 音响设备支持×1[音响设备] 摄影师×1[摄影]"},
		{"A school club planning a bake sale needs volunteers", "现场志愿者×1[志愿者]"},
		{"Wedding planning help needed", "活动策划×1[活动策划]"},
		{"Our team needs help planning an offsite", "活动策划×1[活动策划]"},
		{"I'm launching a podcast and need someone to edit episodes, design cover art, and write show descriptions.", "视频剪辑师×1[视频剪辑] 平面设计师×1[平面设计] 文案撰写×1[文案写作]"},
		{"We need to print 200 posters", "物料印刷×1[印刷物料]"},
		{"We need to translate our brochure into French", "翻译×1[翻译]"},
		{"We need to film the keynote", "摄像师×1[摄像]"},
		{"We need to cater lunch for 80", "餐饮供应商×1[餐饮服务]"},
		{"We need to set up sound for an outdoor stage", "音响设备支持×1[音响设备]"},
		{"Looking to get some help with registration", "现场志愿者×1[志愿者]"},
		{"需要分析问卷结果", "数据分析师×1[数据分析]"},
		{"需要把40位客人从酒店送过来", "交通接送×1[交通接送]"},
		{"需要报一下税", "财务顾问×1[财务]"},
		{"需要打印200张海报", "物料印刷×1[印刷物料]"},
		{"需要印一批海报", "物料印刷×1[印刷物料]"},
		{"需要翻译这份合同", "翻译×1[翻译]"},
		{"需要剪辑一段直播回放", "视频剪辑师×1[视频剪辑]"},
		{"需要直播一场讲座", "直播技术支持×1[直播]"},
		{"We want to run a Python workshop and need two instructors", "演讲嘉宾×2[演讲嘉宾]"},
		{"场地、餐饮我们搞定，只要一个主持人", "主持人×1[主持]"},
		{"No caterer needed, just a venue and a host", "场地提供者×1[场地提供] 主持人×1[主持]"},
		{"We're fine on volunteers, but we're short of speakers", "演讲嘉宾×1[演讲嘉宾]"},
		{"Photographer: yes. Videographer: no.", "摄影师×1[摄影]"},
		{"需要：摄影（是）、摄像（否）、直播（待定）", "摄影师×1[摄影] 直播技术支持×1[直播]"},
		{"摄影：是，摄像：不需要", "摄影师×1[摄影]"},
		{"需要一个设计师做直播背景", "UI设计师×1[UI设计]"},
		{"需要一个剪辑师剪年会花絮", "视频剪辑师×1[视频剪辑]"},
		{"需要一个财务算一下场地费用", "财务顾问×1[财务]"},
		{"需要一个策划做推广方案", "活动策划×1[活动策划]"},
		{"需要一个设计师做海报", "平面设计师×1[平面设计]"},
		{"Need a designer to make a livestream background", "UI设计师×1[UI设计]"},
		{"Need an editor to cut the behind-the-scenes footage", "视频剪辑师×1[视频剪辑]"},
		{"Need an accountant to work out the venue costs", "财务顾问×1[财务]"},
		{"Need a planner to put together a marketing plan", "活动策划×1[活动策划]"},
		{"Need a host to run the livestream", "主持人×1[主持]"},
		{"Need a developer to build the data dashboard", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"Need a translator to subtitle the product video", "翻译×1[翻译]"},
		{"Need a copywriter to script the launch video", "文案撰写×1[文案写作]"},
		{"Need a driver to bring the sound equipment", "交通接送×1[交通接送]"},
		{"Need volunteers to hand out flyers", "现场志愿者×1[志愿者]"},
		{"Need a photographer to cover the catering", "摄影师×1[摄影]"},
		{"Need a driver to bring the sound equipment and a DJ", "交通接送×1[交通接送] 音响设备支持×1[音响设备]"},
		{"社区卫生站想办一次健康讲座，需要一位医生来讲高血压防治，再找人做几张宣传海报", "医生×1[医生] 平面设计师×1[平面设计]"},
		{"作为HR，我要在公司组织一次心理健康讲座，请一位心理咨询师来讲，还需要会议室", "演讲嘉宾×1[演讲嘉宾] 心理咨询师×1[心理咨询师] 场地提供者×1[场地提供]"},
		{"想办一场科普讲座，请一位天文学家来讲", "演讲嘉宾×1[演讲嘉宾]"},
		{"想办一场讲座，需要一位讲师", "演讲嘉宾×1[演讲嘉宾]"},
		{"手游上线前想找人做一支预告片，再找几个主播试玩直播", "视频剪辑师×1[视频剪辑] 主播×2[直播 主持] 直播技术支持×1[直播]"},
		{"We're demoing our game at a con and need booth helpers and printed standees", "现场志愿者×1[志愿者] 物料印刷×1[印刷物料]"},
		{"课题组想把研究成果做成一张学术海报和一段讲解视频", "平面设计师×1[平面设计] 视频剪辑师×1[视频剪辑]"},
		{"农产品想做电商，需要包装设计和网店运营", "平面设计师×1[平面设计] 推广负责人×1[市场推广]"},
		{"企业内训需要会议室和学员手册", "场地提供者×1[场地提供] 物料印刷×1[印刷物料]"},
		{"合唱比赛需要钢琴伴奏和录音", "音响设备支持×1[音响设备]"},
		{"Expo shuttle: daily buses from the hotels to the venue", "交通接送×1[交通接送]"},
		{"Kids coding camp: need teaching assistants and a campsite", "teaching assistant×1[teaching assistant] 场地提供者×1[场地提供]"},
		{"需要录音整理成文字", "文案撰写×1[文案写作]"},
		{"需要一个录音棚", "场地提供者×1[场地提供]"},
		{"We need someone who's great with words", "文案撰写×1[文案写作]"},
		{"我们需要一个文笔好的人", "文案撰写×1[文案写作]"},
		{"Need people who can lift heavy boxes", "现场志愿者×1[志愿者]"},
		{"需要一个会玩Excel的人", "数据分析师×1[数据分析]"},
		{"需要几个热心的家长帮忙", "现场志愿者×2[志愿者]"},
		{"需要几个人帮忙摆摊", "现场志愿者×2[志愿者]"},
		{"需要两个细心的同学帮忙签到", "现场志愿者×2[志愿者]"},
		{"需要几个身强力壮的小伙子帮忙搬东西", "现场志愿者×2[志愿者]"},
		{"明天上午9点前需要把100份资料印好", "物料印刷×1[印刷物料]"},
		{"Need handouts for 50 people", "物料印刷×1[印刷物料]"},
		{"Need a pair of hosts", "主持人×1[主持]"},
		{"Need 1 MC + 2 DJs", "主持人×1[主持] 音响设备支持×2[音响设备]"},
		{"Need a couple volunteers", "现场志愿者×2[志愿者]"},
		{"We hired a couple photographers last year; need a caterer", "餐饮供应商×1[餐饮服务]"},
		{"Last year we used a DJ, this year we want a live band and a caterer", "band×1[band] 餐饮供应商×1[餐饮服务]"},
		{"We worked with a great translator before; this time we need a videographer", "摄像师×1[摄像]"},
		{"去年请过摄影师，今年想找个摄像", "摄像师×1[摄像]"},
		{"上次的主持人很好，这次还想请他，另外需要一个场地", "主持人×1[主持] 场地提供者×1[场地提供]"},
		{"之前合作过的印刷厂倒闭了，需要找个新的", "物料印刷×1[印刷物料]"},
		{"Our last caterer was terrible; need a new caterer", "餐饮供应商×1[餐饮服务]"},
		{"Previously we had volunteers from the university; now we need a venue", "场地提供者×1[场地提供]"},
		{"lf photographer sat pm, shanghai", "摄影师×1[摄影]"},
		{"yo we need some ppl to help set up tmrw", "现场志愿者×3[志愿者]"},
		{"Book club wants an author to visit and a cozy space", "author×1[author] 场地提供者×1[场地提供]"},
		// An instructor, a coach or a 导师 named by the activity they teach
		// is a person of their own (a gap), not a speaker nor a mentor; a
		// mentor of startups stays one.
		{"We need a yoga instructor and a venue in Hangzhou", "yoga instructor×1[yoga instructor] 场地提供者×1[场地提供]"},
		{"Need two ski instructors and a minibus for the school trip", "ski instructor×2[ski instructor] 交通接送×1[交通接送]"},
		{"Hiring a swimming coach for my 8 year old, weekends only", "swimming coach×1[swimming coach]"},
		{"想办冥想工作坊，需要冥想导师和安静的场地", "冥想导师×1[冥想导师] 场地提供者×1[场地提供]"},
		{"Need a startup coach for our founders", "导师×1[演讲嘉宾 产品经理 AI研究]"},
		// A person asked for after "recommend", "find me" or 推荐, or with
		// a word for what they are like before their noun; 外教 is a
		// person.
		{"Can anyone recommend a piano teacher near Xuhui?", "piano teacher×1[piano teacher]"},
		{"Can you find me a personal trainer in Shenzhen?", "personal trainer×1[personal trainer]"},
		{"Leadership day for 20 managers: we need an experienced corporate trainer plus a meeting room", "corporate trainer×1[corporate trainer] 场地提供者×1[场地提供]"},
		{"求推荐一个书法老师，孩子8岁", "书法老师×1[书法老师]"},
		{"公司想给员工开一个英语口语班，需要一位外教", "外教×1[外教]"},
		// What a teacher the demand asks for teaches, after a verb of
		// teaching or before a word for a class, is no trade's need; the
		// people taught or certified are whom it is for. Without a
		// teacher's noun, the trade's worker may teach.
		{"Looking for a teacher to teach video editing to our interns", "teacher×1[teacher]"},
		{"需要一个老师教孩子们摄影", "老师×1[老师]"},
		{"想请个老师给员工上一堂数据分析课", "老师×1[老师]"},
		{"Our hospital needs a CPR trainer to certify 50 nurses", "cpr trainer×1[cpr trainer]"},
		{"找人教我们团队拍短视频和剪辑", "视频剪辑师×1[视频剪辑]"},
		// A person asked for as a role the vocabulary names is that role's
		// person ("investors as judges", "老师当评委").
		{"Startup pitch night: need 3 investors as judges and a host", "评委×3[演讲嘉宾 AI研究 产品经理] 主持人×1[主持]"},
		{"Looking for a retired teacher as our MC", "主持人×1[主持]"},
		{"作文比赛需要请两位老师当评委", "评委×2[演讲嘉宾 AI研究 产品经理]"},
		// Two trades' words side by side are one person, counted by
		// either word.
		{"学术会议需要同传和会务志愿者8名", "翻译×1[翻译] 活动策划×8[活动策划 志愿者]"},
		// A trade's word right before a noun for a software product says
		// what the product does, not whom the demand asks for.
		{"We want to build a video editing app and need a frontend developer", "前端工程师×1[前端开发]"},
		{"我们在做一款数据分析工具，缺一个UI设计师", "UI设计师×1[UI设计]"},
		{"想做一个AI写作助手的产品，需要一个后端", "后端工程师×1[后端开发]"},
		// After a colon that follows an event's name, a list names what
		// the event needs; after another colon, nobody asked for. A choir
		// and a lion-dance troupe are people.
		{"Birthday party for my 6-year-old: a magician, balloons and a cake", "magician×1[magician] 餐饮供应商×1[餐饮服务]"},
		{"年会：一位化妆师、一个摄影师", "化妆师×1[化妆师] 摄影师×1[摄影]"},
		{"团队构成：一个产品经理、两个工程师，需要一个设计师", "产品经理×1[产品经理] UI设计师×1[UI设计]"},
		{"Wedding: already booked photographer. Still need hair and makeup, and a gospel choir", "choir×1[choir]"},
		{"新店开业想请舞狮队，再发一些传单", "舞狮队×1[舞狮队] 物料印刷×1[印刷物料]"},
		// Someone asked to drive people is a driver.
		{"Need a hiking guide for a group of 12, and someone to drive us from Hefei", "guide×1[guide] 交通接送×1[交通接送]"},
		{"Can anyone drive our guests around Suzhou on Saturday?", "交通接送×1[交通接送]"},
		// Each trade's words, a further pass: people to present, a ghostwriter,
		// a letter, an analysis, a model to build, pulling people in, fission
		// growth, 操办, requirements and priorities, a roadmap, a party house,
		// a large model to plug in, an AI specialist, wedding invitations,
		// opening and closing credits, three languages, speakers to rent, a
		// backdrop cloth and table tents, a motorcade, a budget to build, a
		// sponsorship agreement (no sponsor); a town hall is a meeting, a
		// contract basis a way of hiring, raw footage and old photos what the
		// demand has.
		{"Our fintech meetup still needs a couple of people to present", "演讲嘉宾×2[演讲嘉宾]"},
		{"Need a ghostwriter for a memoir", "文案撰写×1[文案写作]"},
		{"Who can help us draft a fundraising letter?", "文案撰写×1[文案写作]"},
		{"需要有人帮忙做个分析", "数据分析师×1[数据分析]"},
		{"门店客流的数据想找人建个模型预测一下", "数据分析师×1[数据分析]"},
		{"活动报名人太少，急需有人帮忙拉人", "推广负责人×1[市场推广]"},
		{"客户想做社群裂变", "推广负责人×1[市场推广]"},
		{"公司二十周年庆典，想找个专业团队从头到尾操办", "活动策划×1[活动策划]"},
		{"年底想理一下需求，排优先级，找个懂的人", "产品经理×1[产品经理]"},
		{"团队想做一个产品路线图", "产品经理×1[产品经理]"},
		{"Who can help us figure out what to build first?", "产品经理×1[产品经理]"},
		{"周六想订个轰趴馆", "场地提供者×1[场地提供]"},
		{"我们想接入大模型做智能客服", "AI技术顾问×1[AI研究]"},
		{"Need an AI specialist for a pilot project", "AI技术顾问×1[AI研究]"},
		{"结婚要做喜帖", "平面设计师×1[平面设计]"},
		{"需要有人做片头片尾", "视频剪辑师×1[视频剪辑]"},
		{"景区的指示牌要做成三语的", "翻译×1[翻译]"},
		{"Need to rent some speakers for the picnic", "音响设备支持×1[音响设备]"},
		{"需要印一块背景布，再做一些桌签", "物料印刷×1[印刷物料]"},
		{"婚礼那天需要一个车队", "交通接送×1[交通接送]"},
		{"We need help building a budget for our film festival", "财务顾问×1[财务]"},
		{"请个律师帮我们看看赞助协议", "法律顾问×1[法律咨询]"},
		{"Need someone to stream our town hall on YouTube", "直播技术支持×1[直播]"},
		{"Our school wants remote attendees to follow the ceremony", "直播技术支持×1[直播]"},
		{"Hiring a React developer on a contract basis", "前端工程师×1[前端开发]"},
		{"We have raw footage from the parade, need it turned into a short recap", "视频剪辑师×1[视频剪辑]"},
		{"Can anyone put together a slideshow video of old photos?", "视频剪辑师×1[视频剪辑]"},
		// Someone with a skill, nobody named before them, is asked for that
		// skill; after a named person, the skill is that person's.
		{"Looking for someone with computer vision experience to inspect parts", "AI技术顾问×1[AI研究]"},
		{"Need someone with bookkeeping experience for our shop", "财务顾问×1[财务]"},
		{"Need a translator, ideally someone with legal background", "翻译×1[翻译]"},
		// A person named by no noun of their own, invited to come and talk,
		// is a speaker; one invited already is no need.
		{"开年大会想请一位在行业里有分量的人来讲讲明年的趋势", "演讲嘉宾×1[演讲嘉宾]"},
		{"认识一位做自动驾驶的大佬，想请他来我们学校做个报告", "演讲嘉宾×1[演讲嘉宾]"},
		{"读书会想约作者来聊聊新书", "演讲嘉宾×1[演讲嘉宾]"},
		{"我们请了他来讲讲", ""},
		// A verb's object ends before what it is for: "write the copy for
		// our website" asks for a writer, not a site.
		{"Need someone to write the copy for our landing page", "文案撰写×1[文案写作]"},
		{"Looking for someone to write copy for our website", "文案撰写×1[文案写作]"},
		// Someone fluent in a language, or a text's version in one, asks
		// for a translator; the place after "at our" is where the work is.
		{"Need someone fluent in Korean to help at our trade show booth", "翻译×1[翻译]"},
		{"Looking for somebody fluent in German for a factory tour", "翻译×1[翻译]"},
		{"Our website needs a Spanish version", "翻译×1[翻译]"},
		{"We need a DJ at our rooftop bar", "音响设备支持×1[音响设备]"},
		// A place asked for by what it can do is a venue, what it can do no
		// trade's need; a verb that starts an event's word ("开分享会") asks
		// nobody to do it.
		{"我们二十来个人想找个能投影的地方开个分享会", "场地提供者×1[场地提供]"},
		{"想找个可以烧烤的地方", "场地提供者×1[场地提供]"},
		{"想找个地方开分享会", "场地提供者×1[场地提供]"},
		// People asked to hand things out are helpers, and the things are
		// handed out, not made; kind-hearted people and people who can
		// spare a few hours are helpers too.
		{"马拉松终点需要人发奖牌和矿泉水", "现场志愿者×1[志愿者]"},
		{"展会需要几个人分发宣传册", "现场志愿者×2[志愿者]"},
		{"周末植树活动需要五个热心人一起参与", "现场志愿者×5[志愿者]"},
		{"Can anyone spare a few hours at our school fete?", "现场志愿者×1[志愿者]"},
		// An event put on the air, or watched from afar, asks for a stream.
		{"发布会想同步在视频号上播出去", "直播技术支持×1[直播]"},
		{"婚礼想让国外的亲戚在线看", "直播技术支持×1[直播]"},
		{"We'd love for alumni abroad to watch online", "直播技术支持×1[直播]"},
		// Footage to edit or cut is the editor's material, no camera
		// operator's need unless one is asked for too.
		{"Need someone to edit 10 hours of conference footage into short clips", "视频剪辑师×1[视频剪辑]"},
		{"Can you cut our wedding footage into a 5-minute film?", "视频剪辑师×1[视频剪辑]"},
		{"We need someone to film the match and then edit the footage", "摄像师×1[摄像] 视频剪辑师×1[视频剪辑]"},
		// Guests or speakers driven somewhere are no speakers asked for.
		{"三十位嘉宾周五从虹桥站到酒店，需要安排车", "交通接送×1[交通接送]"},
		{"Can someone give our visiting professors a lift from the airport?", "交通接送×1[交通接送]"},
		{"需要两位嘉宾，从北京过来", "演讲嘉宾×2[演讲嘉宾]"},
		// An event someone is asked to help put together asks for a planner;
		// code to refactor for a developer of either end.
		{"Who can help us put together a company picnic for 150 people?", "活动策划×1[活动策划]"},
		{"Need someone to help us organize a reunion for 60 classmates", "活动策划×1[活动策划]"},
		{"I'm throwing a party and need a DJ", "音响设备支持×1[音响设备]"},
		{"找个会Go的，帮我们把老系统重构一下", "开发工程师×1[前端开发 后端开发]"},
		{"Need someone to refactor our legacy codebase", "开发工程师×1[前端开发 后端开发]"},
		// A thing booked (场地定了) is no need; parents asked to help are
		// helpers; a Product Hunt launch, a stage manager, commentary,
		// accounts to keep, a recording (录个像), vows, a UX writer.
		{"现在场地定了，还差一个主持人", "主持人×1[主持]"},
		{"义卖那天需要家长帮忙看摊位", "现场志愿者×1[志愿者]"},
		{"Need help with a Product Hunt launch", "推广负责人×1[市场推广]"},
		{"Looking for a stage manager for the gala", "活动策划×1[活动策划]"},
		{"Our esports club needs someone to commentate", "主持人×1[主持]"},
		{"We need somebody to keep the accounts for our football club", "财务顾问×1[财务]"},
		{"想给孩子的钢琴比赛录个像", "摄像师×1[摄像]"},
		{"想找人写一个婚礼誓词", "文案撰写×1[文案写作]"},
		{"Looking for a UX writer for our app", "文案撰写×1[文案写作]"},
		{"需要一些同学帮忙搬椅子", "现场志愿者×3[志愿者]"},
		{"周末需要几位家长帮忙", "现场志愿者×2[志愿者]"},
		// 前后端 names each end; a system named by what it does is the
		// builder's, its function no need of its own; someone who knows a
		// language, asked for with no noun, translates; helpers with a word
		// for what they are like; data to clean; a page to redo; a guest
		// list; whom a report is for.
		{"想做个小程序让会员预约，前后端都要", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		{"需要一个人帮忙做会议签到系统", "后端工程师×1[后端开发]"},
		{"找个会日语的带日本客户逛逛", "翻译×1[翻译]"},
		{"Need a couple of strong guys to help move furniture", "现场志愿者×2[志愿者]"},
		{"Need the registration data cleaned up and turned into a report for the sponsors", "数据分析师×1[数据分析]"},
		{"Could use someone to redo our donation page, it's ancient", "前端工程师×1[前端开发]"},
		{"Need someone to liaise with the hotel and manage the guest list", "活动策划×1[活动策划]"},
		// What a phrasal verb of work hands out is its work, not another
		// trade's; the writer's own staff are nobody asked for; a company's
		// accounts are no video's; 礼仪小姐 counted after, a key visual, a
		// blog.
		{"We need a person to greet guests and hand out name badges", "现场志愿者×1[志愿者]"},
		{"Is there anyone who can teach our staff basic data analysis in Excel?", "数据分析师×1[数据分析]"},
		{"Want to hire someone to manage our company's WeChat", "推广负责人×1[市场推广]"},
		{"需要：1.主持人一名 2.礼仪小姐四名", "主持人×1[主持] 现场志愿者×4[志愿者]"},
		{"想找个设计帮忙出一版活动主KV", "平面设计师×1[平面设计]"},
		{"求一个能写技术博客的人", "文案撰写×1[文案写作]"},
		// An online shop to set up; a deep-learning framework.
		{"Anyone who can help us set up a simple online shop?", "前端工程师×1[前端开发]"},
		{"Need someone who knows PyTorch", "AI技术顾问×1[AI研究]"},
		// A video made of photos is an editor's, the photos no need.
		{"婚礼上想放一段我们俩从小到大的照片视频", "视频剪辑师×1[视频剪辑]"},
		{"爸妈结婚三十周年，想做个电子相册", "视频剪辑师×1[视频剪辑]"},
		// Data to analyse or clean, said by the verb and the data, is a
		// data analyst's, whoever's data it is.
		{"博物馆想分析一下近三年的观众数据，看看哪些展览最受欢迎", "数据分析师×1[数据分析]"},
		{"想找人帮我分析直播间的数据，看看为什么转化低", "数据分析师×1[数据分析]"},
		// Books to keep or do are a bookkeeper's.
		{"We need someone to keep the church's books now that our treasurer retired", "财务顾问×1[财务]"},
		// How an event is held names a need, not what it is about: a
		// launch streamed live needs a livestream hand.
		{"我们想在B站上做一次新游戏的直播发布会", "直播技术支持×1[直播]"},
		{"下个月办一场直播发布会，还要一位主持人", "直播技术支持×1[直播] 主持人×1[主持]"},
		// A tool, a tracker or a portal to build is a developer's.
		{"Need someone to build a simple inventory tracker for our bakery", "后端工程师×1[后端开发]"},
		{"We need someone to build the hackathon's submission portal", "后端工程师×1[后端开发]"},
		// Aerial shots are a photographer's; a drone used for them is a
		// thing, not a person asked for.
		{"需要一个会用无人机航拍的人来拍开幕式", "摄影师×1[摄影]"},
		{"We want some drone shots of the campus for the open day", "摄影师×1[摄影]"},
		// A letter is a thing, no worker; what the writer's side has made
		// already is not asked for.
		{"My students wrote letters to pen pals in Japan and I need someone to translate 30 short letters into Japanese", "翻译×1[翻译]"},
		{"We've already shot the footage at the gala, now we need someone to edit it into a recap", "视频剪辑师×1[视频剪辑]"},
		// A person's noun does not start with the verb that hires them nor
		// with 把.
		{"幼儿园想招聘两名老师，需要写招聘启事", "老师×2[老师] 文案撰写×1[文案写作]"},
		{"需要把招生简章翻译成英文", "翻译×1[翻译]"},
		// A printed thing to design, before or after the verb, is a
		// graphic designer's, and its printing a printer's.
		{"楼盘的宣传册需要重新设计并印刷2000份", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		{"村里想修一个村史馆，需要人帮忙设计展板并印出来", "平面设计师×1[平面设计] 物料印刷×1[印刷物料]"},
		// A practitioner who comes to give a talk is that person, no
		// speaker besides.
		{"想请一位心理咨询师给员工做减压讲座", "心理咨询师×1[心理咨询师]"},
		{"想请一位牧师来给青年团契做一次分享", "牧师×1[牧师]"},
		{"需要一位摄影师给大家拍合影，还要两位演讲嘉宾", "摄影师×1[摄影] 演讲嘉宾×2[演讲嘉宾]"},
		// A host listed after a slash or before a colon is asked for.
		{"Venue: none needed; host: yes", "主持人×1[主持]"},
		{"For the gala we need an auctioneer/host and someone to handle the sound", "auctioneer×1[auctioneer] 主持人×1[主持] 音响设备支持×1[音响设备]"},
		// Whoever holds the mic and leads the crowd hosts; a storyteller
		// talks; someone who can write writes.
		{"年会上缺一个拿话筒带节奏的人", "主持人×1[主持]"},
		{"We'd like a storyteller to come in and read to the kids once a week", "演讲嘉宾×1[演讲嘉宾]"},
		{"想给球队做个公众号，定期发比赛战报，需要一个会写的人", "推广负责人×1[市场推广] 文案撰写×1[文案写作]"},
		// Subtitles in a language are a translator's too; a video
		// walkthrough is a camera operator's.
		{"We have the video done, just need subtitles in English", "视频剪辑师×1[视频剪辑] 翻译×1[翻译]"},
		{"I need professional photos and a video walkthrough of a flat in Shanghai for the listing", "摄影师×1[摄影] 摄像师×1[摄像]"},
		// Screens to redo are a UI designer's, not screens to rent.
		{"Our app looks dated and clunky, we want someone to redo the screens before the next release", "UI设计师×1[UI设计]"},
		// A site broken on phones, and the layout of a site, are a
		// front-end developer's.
		{"Our site looks broken on mobile, need someone to fix the layout this week", "前端工程师×1[前端开发]"},
		{"官网在手机端显示很乱，想找人调一下排版", "前端工程师×1[前端开发]"},
		// A place online is built, not rented: no venue.
		{"想做一个线上展厅，让观众在网上也能看展，需要懂前端和3D的开发", "前端工程师×1[前端开发] 后端工程师×1[后端开发]"},
		// Guards on the rules above: a word only inside another ("happy",
		// 大约, 分享会, "coach bus"), guests coming from work experience,
		// tools to bring, books on a shelf, a friend asked to recommend, a
		// form's label.
		{"Please fix the layout of our flyer, happy to pay", "平面设计师×1[平面设计]"},
		{"邀请几位嘉宾分享从业经验", "演讲嘉宾×2[演讲嘉宾]"},
		{"大约50人来参加分享会，需要一个场地", "场地提供者×1[场地提供]"},
		{"请个农业专家来讲讲", "农业专家×1[农业专家]"},
		{"Need a coach bus for 40 people and someone to teach photography", "交通接送×1[交通接送] 摄影师×1[摄影]"},
		{"Need volunteers for the cleanup; make sure volunteers bring tools", "现场志愿者×1[志愿者]"},
		{"Need help to sort out the books for our book swap", ""},
		{"想找朋友帮忙推荐一个摄影师", "摄影师×1[摄影]"},
		{"Host: Shenzhen AI Club. Need a photographer", "摄影师×1[摄影]"},
		{"Shareholders meeting: need a hotel ballroom, an AV crew, and minutes taken", "场地提供者×1[场地提供] 音响设备支持×1[音响设备] 文案撰写×1[文案写作]"},
		{"The quiz is led by our CEO; we need a caterer and LED lights", "餐饮供应商×1[餐饮服务] 音响设备支持×1[音响设备]"},
	} {
		var got []string
		for _, n := range needsIn(tc.text, eventName(tc.text)) {
			got = append(got, fmt.Sprintf("%s×%d%v", n.Role, n.Count, n.CapabilityTags))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.text, g, tc.want)
		}
	}
}

// TestGapsCheckEveryNeed: prompt 7 checks each need against the willing
// offers, counts included; a composite need is covered by an offer of
// one of its tags.
func TestGapsCheckEveryNeed(t *testing.T) {
	raw := "年会需要两位主讲嘉宾和一位评委"
	var u neg.Understanding
	newTestEngine(t, nil).call(llm.PromptUnderstand, &llm.UnderstandInput{RawInput: raw}, &u)
	offers := []llm.OfferView{{AgentID: "a", Decision: neg.OfferDecisionParticipate, Contribution: "作为演讲嘉宾，分享大模型落地"},
		{AgentID: "b", Decision: neg.OfferDecisionParticipate, Contribution: "作为评委，从AI研究的角度点评项目"}}
	g := plain[tGaps](t, gaps(&llm.GapInput{Demand: u, RawInput: raw, Offers: offers}))
	var got []string
	for _, gap := range g.Gaps {
		if gap.GapType == "演讲嘉宾" || gap.GapType == "评委" { // the needs' gaps (not the event's implicit ones)
			got = append(got, gap.GapType+": "+gap.Reason)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "演讲嘉宾: 需求需要2位演讲嘉宾，愿意参与的只有1位") {
		t.Errorf("gaps %v", got)
	}
}

// TestVerbsOf: the verbs of gerund keywords, and of agent-noun keywords
// beside an activity on the same stem, by rule.
func TestVerbsOf(t *testing.T) {
	for _, tc := range []struct {
		kw, siblings, want string
	}{
		{"writing", "", "writ write"}, {"editor", "editing", "edit edite"}, {"planner", "planning", "plan plane"},
		{"translator", "translation", "translat translate"}, {"catering", "", "cater catere"},
		{"photographer", "photography photos", "photograph photographe"},
		{"poster", "posters logo", ""}, {"driver", "transport", ""},
		{"video editing", "", ""}, {"mc", "", ""}, {"pm", "", ""}, {"翻译", "", ""},
	} {
		if got := strings.Join(verbsOf(tc.kw, strings.Fields(tc.siblings+" "+tc.kw)), " "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.kw, got, tc.want)
		}
	}
}

// TestZhVerbOf: a Chinese keyword naming a person by what they do gives
// that activity as a verb.
func TestZhVerbOf(t *testing.T) {
	for kw, want := range map[string]string{"分享人": "分享", "分享者": "分享", "主持人": "主持", "讲者": "", "摄影师": "", "photographer": ""} {
		if got := zhVerbOf(kw); got != want {
			t.Errorf("%s: %q, want %q", kw, got, want)
		}
	}
}

// TestWorkerHeads: the heads that name a trade before a worker noun leave
// out function words and events.
func TestWorkerHeads(t *testing.T) {
	for i, v := range vocabulary {
		for _, h := range workerHeadsOf(i) {
			if len(h) < 4 || h == "conference" || h == "event" {
				t.Errorf("%s: head %q", v.tag, h)
			}
		}
	}
	if i := tagIndex["音响设备"]; !slices.Contains(workerHeadsOf(i), "sound") {
		t.Errorf("音响设备's heads %v lack sound", workerHeadsOf(i))
	}
}
