// The inbox's GraphQL mutations (pull now, a decision), typed by GraphQL
// Code Generator like ops.ts; loaded with the Inbox screen only.
import { graphql } from '../gql';

export const PullReceivedInvoicesDoc = graphql(`
  mutation PullReceivedInvoices($projectId: ID!) {
    pullReceivedInvoices(projectId: $projectId) { workflowId }
  }
`);

export const DecideReceivedInvoiceDoc = graphql(`
  mutation DecideReceivedInvoice($projectId: ID!, $id: ID!, $decision: String!, $reason: String) {
    decideReceivedInvoice(projectId: $projectId, id: $id, decision: $decision, reason: $reason) {
      id decision decisionReason decidedAt
    }
  }
`);
