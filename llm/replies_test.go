package llm

// Well-formed replies to the sample inputs, in the RAW shapes of the
// design, as a model (or the builtin brain) would write them.

const replyUnderstand = `{
  "surface_demand": "在北京组织一场 50 人的 AI 技术沙龙",
  "deep_understanding": {"motivation": "结识同行", "likely_preferences": ["交通方便"], "emotional_context": "期待"},
  "capability_tags": ["场地", "演讲嘉宾", "摄影"],
  "context": {"location": "北京", "expected_attendees": 50, "date": "下个月", "budget": "5000 元"},
  "uncertainties": ["具体日期"],
  "confidence": "high"
}`

const replyFilter = `{
  "analysis": "Bob 有场地，Alice 能分享，Carol 会摄影",
  "definitely_related": [
    {"agent_id": "user_agent_bob", "display_name": "Bob", "reason": "有 80 人会议厅", "match_type": "explicit", "confidence": 0.9},
    {"agent_id": "user_agent_alice", "display_name": "Alice", "reason": "大模型工程师", "match_type": "explicit", "confidence": 0.85}
  ],
  "possibly_related": [
    {"agent_id": "user_agent_carol", "display_name": "Carol", "reason": "摄影师，但在上海", "match_type": "inferred", "confidence": 0.5}
  ],
  "total_candidates": 3
}`

const replyOffer = `{
  "decision": "participate",
  "contribution": "提供 80 人会议厅和投影",
  "conditions": [],
  "reasoning": "周末场地空闲",
  "decline_reason": "",
  "confidence": 85
}`

const replyAggregate = `{
  "summary": "AI 技术沙龙协作方案",
  "objective": "3 月在中关村举办 50 人沙龙",
  "assignments": [
    {"agent_id": "user_agent_bob", "display_name": "Bob", "role": "场地提供者", "responsibility": "提供会议厅和投影", "dependencies": [], "notes": ""},
    {"agent_id": "user_agent_alice", "display_name": "Alice", "role": "演讲嘉宾", "responsibility": "下午分享 30 分钟", "dependencies": ["场地确认"], "notes": "安排在下午"}
  ],
  "timeline": {"start_date": "2026-03-01", "milestones": [{"name": "场地确认", "date": "2026-03-05", "deliverable": "预订单"}]},
  "rationale": "各尽所长",
  "gaps": ["摄影师"],
  "confidence": "medium"
}`

const replyFeedback = `{
  "feedback_type": "negotiate",
  "reasoning": "时间太早",
  "adjustment_request": "把分享挪到 15:00 之后",
  "concerns": ["上午有课"],
  "confidence": 70
}`

const replyAdjust = `{
  "summary": "调整后的沙龙方案",
  "objective": "3 月在中关村举办 50 人沙龙",
  "assignments": [
    {"agent_id": "user_agent_bob", "display_name": "Bob", "role": "场地提供者", "responsibility": "提供会议厅", "dependencies": [], "notes": ""},
    {"agent_id": "user_agent_alice", "display_name": "Alice", "role": "演讲嘉宾", "responsibility": "15:30 分享", "dependencies": [], "notes": ""}
  ],
  "timeline": {"start_date": "2026-03-01", "milestones": []},
  "rationale": "满足 Alice 的时间要求",
  "gaps": ["摄影师"],
  "confidence": "high",
  "adjustment_summary": {
    "round": 2,
    "changes_made": [{"aspect": "分享时间", "before": "14:00", "after": "15:30", "reason": "Alice 上午有课"}],
    "requests_addressed": ["把分享挪到 15:00 之后"],
    "requests_declined": []
  }
}`

const replyGaps = `{
  "is_complete": false,
  "analysis": "缺少摄影",
  "gaps": [
    {"gap_type": "摄影师", "importance": 70, "reason": "需要记录活动内容", "suggested_capability_tags": ["摄影", "活动拍摄"]}
  ]
}`

const replyRecursion = `{
  "should_recurse": true,
  "condition_1_met": true,
  "condition_1_analysis": "缺少摄影影响活动记录",
  "condition_2_met": true,
  "condition_2_analysis": "网络中有摄影师",
  "condition_3_met": true,
  "condition_3_analysis": "成本低",
  "sub_demands": [
    {"gap_type": "摄影师", "description": "寻找北京的活动摄影师", "capability_tags": ["摄影"], "priority": "high"}
  ]
}`

const replyCompromise = `{
  "summary": "先办一场没有摄影的小型沙龙",
  "type": "compromise",
  "assignments": [
    {"agent_id": "user_agent_bob", "display_name": "Bob", "role": "场地提供者", "responsibility": "提供会议厅", "dependencies": []}
  ],
  "compromises": [{"issue": "没有摄影师", "resolution": "由参与者手机拍照", "rationale": "成本最低"}],
  "unresolved": ["专业摄影"],
  "suggestions": ["下次提前两周招募摄影师"],
  "confidence": "medium"
}`

const replyTask = `{
  "status": "done",
  "summary": "已完成：演讲嘉宾——3 月 14 日下午做了 30 分钟大模型落地分享，并回答了现场提问",
  "problem": ""
}`

const replyConverse = `{
  "thought": "Zoe 不是参与者，彩排改由 Alice 负责",
  "tool": "create_node",
  "args": {"node": {"type": "task", "title": "彩排", "assignee_id": "user_agent_alice"}, "after": ["milestone-1"]},
  "confidence": 0.8
}`
