// What a refusal of the Coordinator means, in the person's words: the
// rule that refused a change, and the field it names, read as one
// sentence. The server's own message (English, with ids) stays out of
// what the person reads; it is kept in a title for support.

const byRule = {
  acyclic: "这样会让步骤互相等待，形成死循环",
  assignee: "负责人必须是协议的参与者",
  http_allow_list: "这个地址不在允许调用的名单上",
  frozen_nodes: "这一步已经开始或结束，不能再改",
  workflow_state: "执行计划现在的状态不允许这个修改",
  version: "执行计划刚被别人改过",
  rate_limit: "短时间内修改太多，请稍后再试",
  references: "提到的步骤不存在，或这条依赖已经有了",
  data_flow: "引用了前面步骤没有提供的数据",
  size: "执行计划的步骤太多了",
  executable: "执行计划还不能执行：有步骤缺少必要的信息",
  well_formed: "这个修改不完整",
};

const byField = {
  title: "步骤需要一个标题",
  assignee_id: "任务需要一位参与者负责，其他类型的步骤没有负责人",
  url: "需要一个完整的 http(s) 地址",
  method: "请求方法只能是 GET、POST、PUT、PATCH 或 DELETE，GET 和 DELETE 不带请求体",
  body: "请求体里引用了不存在的数据",
  wait_until: "等待步骤需要一个时间",
  approver: "审批人需要是一个用户（不含空格）",
  timeout_seconds: "超时时间超出了允许的范围",
  max_attempts: "尝试次数超出了允许的范围",
};

// plainRefusal is one refusal ({field, message}) of a change refused by
// rule, in plain words.
export function plainRefusal(rule, refusal) {
  if (rule === "node_fields" || !byRule[rule]) return byField[refusal.field] || byRule[rule] || "协调者没有通过这个修改";
  return byRule[rule];
}
