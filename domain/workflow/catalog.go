package workflow

import "github.com/towow/towow/domain/event"

// init registers the event types of the workflow context in the catalog.
func init() {
	event.Register(
		// Workflows: the agreed plan carried out.
		event.NewSpec[WorkflowCreated]("An agreed plan became a draft workflow: a task per assignment, a milestone per timeline milestone."),
		event.NewSpec[WorkflowNodeAdded]("A validated decision added a node to a workflow."),
		event.NewSpec[WorkflowNodeUpdated]("A validated decision changed a workflow node's fields."),
		event.NewSpec[WorkflowNodeDeleted]("A validated decision deleted a workflow node and its edges."),
		event.NewSpec[WorkflowNodeMoved]("A workflow node was moved on the canvas (layout only)."),
		event.NewSpec[WorkflowEdgeAdded]("A validated decision made one workflow node run after another."),
		event.NewSpec[WorkflowEdgeDeleted]("A validated decision removed an edge of a workflow."),
		event.NewSpec[WorkflowStarted]("A workflow's execution started."),
		event.NewSpec[WorkflowCompleted]("Every node of a workflow completed."),
		event.NewSpec[WorkflowFailed]("A workflow failed: one of its nodes failed for good."),
		event.NewSpec[WorkflowCancelled]("A workflow was cancelled; nodes not started were skipped."),
		event.NewSpec[NodeStarted]("An attempt of a workflow node started."),
		event.NewSpec[NodeCompleted]("A workflow node completed with its result."),
		event.NewSpec[NodeFailed]("An attempt of a workflow node failed; another follows or the node failed for good."),
		event.NewSpec[NodeSkipped]("A workflow node will not run: a dependency failed, or the workflow failed or was cancelled."),
		event.NewSpec[DecisionValidated]("The Coordinator let a decision on a workflow through (with any corrections); its effects follow in the same commit."),
		event.NewSpec[DecisionRejected]("The Coordinator refused a decision on a workflow, naming the rule and the field errors."),
		event.NewSpec[ConversationMessage]("A person said something to the conversation agent about a workflow."),
		event.NewSpec[ConversationStep]("The conversation agent took a step: its thought, its action (a tool or a decision) and what it observed."),
		event.NewSpec[ConversationReplied]("The conversation agent ended its turn with a reply (or a question for the person)."),
	)
}
