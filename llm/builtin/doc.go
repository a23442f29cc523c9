// Package builtin is a SIMULATION of a language model for offline use,
// demos and tests. It is not a language model: it does not generate text,
// it reads the typed input the engine attaches to every request
// (llm.Request.Input) and answers with hand-written rules, keyword tables
// and Chinese sentence templates.
//
// The provider returned by [New] (or [NewWithLatency], which waits like a
// real model for demos) answers the eleven ToWow prompts
// (llm.PromptKeys) with a JSON object in exactly the shape each prompt's
// template asks a real model for: it fills the reply
// types the llm package declares once per prompt (llm.UnderstandReply …
// llm.ConverseReply) and encodes them, so the same parser handles its
// replies and a real model's. Like a real model it
// sometimes wraps the JSON in a ```json fence or puts a one-sentence
// preamble in front of it (about 70% plain, 20% fenced, 10% with a
// preamble).
//
// Each file of the brain registers its answer against the prompt value it
// answers (register(llm.Gaps, gaps) in gaps.go): the answer reads the
// prompt's input type and fills its reply type, so a new prompt needs one
// new file here and nothing else.
//
// # Determinism
//
// The provider uses no network, reads no clock and uses no global
// randomness. Every choice it makes (who declines, which condition an agent
// asks for, who keeps negotiating, the importance of a gap, the reply
// format) comes from an FNV-64a hash of the relevant inputs: the raw demand
// text, the agent id, the round and the prompt key. The same demand with
// the same agent profiles therefore always yields the same negotiation,
// byte for byte.
//
// # Behaviour
//
//   - Understanding (prompt 1) maps Chinese and English keywords onto the
//     shared capability-tag vocabulary (场地提供, 演讲嘉宾, 活动策划, 摄影 …),
//     an English keyword also in the forms made from it by rule (plurals,
//     the agent nouns of -ing words, hyphenated compounds written with a
//     space),
//     adds 活动策划 to event-like demands and extracts the city, the number
//     of attendees, the date and the budget as written.
//   - Filtering (prompt 2) scores every profile by tag overlap, location
//     (same city, 远程, elsewhere) and interests, and returns strong matches
//     as definitely related and a few partial matches as possibly related.
//   - Offers (prompt 3) depend on the match, the city (another city hurts
//     a venue far more than a designer), the availability text against the
//     demand date ("仅工作日" vs a weekend) and a seeded draw: over the
//     candidates of ordinary demands roughly 60% participate, 20% attach
//     conditions and 20% decline, with a reason.
//   - Understanding also names the demand's needs: the roles it
//     asks for with their tags and counts ("两位主讲嘉宾" → 2), in Chinese
//     and English; a role word that names what an event is about
//     ("产品经理交流会", "摄影展") or whom it is for ("training for 40
//     staff") asks for nobody; work asked for by its verb names its
//     trade ("someone to write our job ads", "请两位前辈分享", verbs.go);
//     "宣传海报" asks for the poster's designer; a demand whose words
//     name nobody in the vocabulary is read with the lexicon generated from
//     the profiles' own texts (lexicon.go); a person asked for by a noun
//     no trade names ("想请一位营养师") is a need of its own, reported as a
//     gap (rolenouns.go), also as a later item of a list beside trades
//     the vocabulary names ("需要化妆师、摄影师和一位司仪"), unless the
//     profiles' own words name its trade ("调音师"); a keyword inside
//     another trade's longer one names that trade alone ("speakers and
//     mics"); what the demand says it has or does not want is no need
//     ("场地我们已经有了", "we already have a venue"); things before a
//     participle are its worker's work ("posters and catalogues
//     printed"); a count is the worker's, not the situation's ("三位外宾"
//     asks for one translator), and may come after the role ("评委五位");
//     one that names nobody at all has no needs (the engine rejects it
//     as unclear).
//   - Aggregation (prompt 4) assigns per need, up to its count, the
//     better fits first (the filter's relevance score, in bands of ten,
//     which rates where an agent is as well as what it does), within a
//     band who participates without conditions, then in a seeded order
//     that does not depend on when offers arrived; a need still short
//     takes a willing agent left over who offered to cover it as well
//     ("也可以兼顾餐饮供应商的工作"); the other willing agents become
//     alternates and a need nobody took is a gap. It writes
//     only part of the conditions into the notes, so conditional agents
//     tend to negotiate in round 1. Alternates accept standing by. Feedback (prompt 5) accepts a proposal that
//     reflects the agent's conditions; a few agents raise scheduling points,
//     about 6% withdraw in round 1 (weak matches more often), and a small
//     seeded share is stubborn for several rounds, so some negotiations run
//     to the fifth round. Adjustment (prompt 6) puts the first alternate
//     still in, with the duties it offered, in the place of who withdrew
//     from a need, and writes each request into the
//     requester's notes (declining a seeded few), so the next review
//     accepts. Most ordinary demands settle in round 1; about a third have a
//     first round between 0.5 and 0.8 and most of those reach 0.8 in round 2
//     or 3; demands few profiles match sometimes fail.
//   - Gap identification (prompt 7) reports demand tags nobody covers and,
//     for events, an implicit need such as 摄影 or 餐饮服务; recursion
//     (prompt 8) turns the gaps of importance 60 or more into at most three
//     sub-demands ("在北京为AI聚会寻找摄影师") while Depth < MaxDepth; the
//     compromise prompt (9) keeps what is available and lists the rest.
//   - Task execution (prompt 10) reports a workflow task done, with a
//     summary from the role, the responsibility and the profile's own
//     capability text, unless the task's day is one the availability
//     excludes ("仅工作日" and a Saturday) or the task asks for
//     capabilities the profile does not cover: then it reports the problem
//     (see task.go). It draws nothing at random.
//   - Conversation (prompt 11) is a rule-based ReAct agent (see
//     converse.go): after a refused action it explains the refusal in plain
//     words (naming the participants when a task went to someone outside
//     the agreement),
//     after any other action it reports what changed or what it found, and
//     otherwise it reads the message, Chinese or English: approve / reject
//     a waiting approval → approve_node / reject_node, why … failed →
//     get_node, add X before/after Y → create_node (an http node for a web
//     address, a wait for "wait until <time>", an approval, a task when
//     someone is named to do it), remove → delete_node, earlier/later to a due →
//     update_node, 先A再B / A before B → connect, cancel → cancel_workflow,
//     run → execute_workflow, else ask_user. Nodes are found by id or by
//     the title words they share with the text; several or none: ask_user.
//     It takes at most one action per turn, so the engine's loop ends.
//
// Sub-demands are recognised in later prompts by the motivation prompt 1
// gives them (it starts with "为上级协商补齐缺口"), because the typed inputs
// after prompt 1 do not say whether a demand is a sub-demand.
package builtin
