// The GraphQL operations of the screens loaded on demand (submitted
// invoices, webhook endpoints, sandbox faults), typed by GraphQL Code
// Generator like ops.ts; kept apart so the initial bundle does not carry them.
import { graphql } from '../gql';

export const InvoicesDoc = graphql(`
  query Invoices($id: ID!, $first: Int, $after: String, $filter: InvoiceFilter) {
    project(id: $id) {
      id name environment
      invoiceQueue { depth oldestAgeSeconds atRisk missed nextDeadlineAt ratePerMinute nrsStatus }
      invoices(first: $first, after: $after, filter: $filter) {
        edges {
          node {
            id irn status invoiceType invoiceTypeCode issueDate customerTin paymentStatus createdAt updatedAt confirmedAt
            deadlineAt deadlineAtRisk deadlineMissed
          }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const InvoiceDoc = graphql(`
  query Invoice($id: ID!) {
    invoice(id: $id) {
      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference
      paymentStatus qrCodeData qrPngBase64 pendingCall nrsError { id message }
      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`);

export const InvoicePdfDoc = graphql(`
  query InvoicePdf($id: ID!) {
    invoice(id: $id) { id irn pdfBase64 }
  }
`);

export const InvoiceUpdatedDoc = graphql(`
  subscription InvoiceUpdated($id: ID!) {
    invoiceUpdated(id: $id) {
      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference
      paymentStatus qrCodeData qrPngBase64 pendingCall nrsError { id message }
      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`);

export const EndpointsDoc = graphql(`
  query WebhookEndpoints($id: ID!) {
    project(id: $id) {
      id name environment
      webhookEndpoints(first: 50) {
        edges {
          node { id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince createdAt updatedAt }
        }
      }
    }
  }
`);

export const EndpointDeliveriesDoc = graphql(`
  query WebhookDeliveries($id: ID!, $first: Int) {
    project(id: $id) {
      id name
      webhookEndpoints(first: 50) {
        edges {
          node {
            id url description eventTypes enabled disabledReason secretLast4 previousSecretExpiresAt failingSince
            deliveries(first: $first) {
              edges { node { id deliveryId eventId eventType attempt status httpStatus latencyMs responseBody error createdAt } }
              pageInfo { hasNextPage endCursor }
            }
          }
        }
      }
    }
  }
`);

export const CreateEndpointDoc = graphql(`
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { secret endpoint { id url secretLast4 } }
  }
`);

export const UpdateEndpointDoc = graphql(`
  mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) { id enabled disabledReason }
  }
`);

export const DeleteEndpointDoc = graphql(`
  mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
    deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { id deleted }
  }
`);

export const RotateEndpointDoc = graphql(`
  mutation RotateWebhookEndpointSecret($projectId: ID!, $endpointId: ID!, $graceSeconds: Int) {
    rotateWebhookEndpointSecret(projectId: $projectId, endpointId: $endpointId, graceSeconds: $graceSeconds) {
      secret endpoint { id url secretLast4 previousSecretExpiresAt }
    }
  }
`);

export const TestEndpointDoc = graphql(`
  mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
    testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }
  }
`);

export const RedeliverDoc = graphql(`
  mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {
    redeliverEvent(eventId: $eventId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }
  }
`);

export const SandboxFaultsDoc = graphql(`
  query SandboxFaults($id: ID!) {
    project(id: $id) { id name environment }
    sandboxFaults(projectId: $id) { kind endpoint status rate retryAfter startsAt endsAt }
  }
`);

export const SetSandboxFaultDoc = graphql(`
  mutation SetSandboxFault($projectId: ID!, $input: SandboxFaultInput!) {
    setSandboxFault(projectId: $projectId, input: $input) { kind endpoint status rate retryAfter startsAt endsAt }
  }
`);

export const ClearSandboxFaultsDoc = graphql(`
  mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {
    clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)
  }
`);

export const InvoiceSheetColumnsDoc = graphql(`
  query InvoiceSheetColumns {
    invoiceSheetColumns { name level required description }
  }
`);

export const PreviewInvoiceSheetDoc = graphql(`
  query PreviewInvoiceSheet($projectId: ID!, $fileName: String!, $content: String!) {
    previewInvoiceSheet(projectId: $projectId, fileName: $fileName, contentBase64: $content) {
      rowCount counts
      errors { row column message }
      invoices { invoiceReference invoiceType rows valid payload }
    }
  }
`);

export const SubmitInvoiceBatchDoc = graphql(`
  mutation SubmitSheetBatch($projectId: ID!, $invoices: [SubmitInvoiceInput!]!) {
    submitInvoiceBatch(projectId: $projectId, invoices: $invoices) {
      id itemCount counts { status count }
      items { index status invoiceId irn problems { loc msg } error { code detail } }
    }
  }
`);

export const InvoiceBatchDoc = graphql(`
  query SheetBatch($id: ID!) {
    invoiceBatch(id: $id) {
      id itemCount counts { status count }
      items { index status invoiceId irn problems { loc msg } error { code detail } }
    }
  }
`);

export const CreateInvoiceNoteDoc = graphql(`
  mutation CreateInvoiceNote($invoiceId: ID!, $kind: InvoiceNoteKind!, $input: InvoiceNoteInput!) {
    createInvoiceNote(invoiceId: $invoiceId, kind: $kind, input: $input) { id irn status invoiceTypeCode billingReference }
  }
`);

export const InvoiceUblDoc = graphql(`
  query InvoiceUbl($id: ID!) {
    invoice(id: $id) { id irn ubl }
  }
`);

export const ReceivedInvoicesDoc = graphql(`
  query ReceivedInvoices($id: ID!, $first: Int, $after: String, $filter: ReceivedInvoiceFilter) {
    project(id: $id) {
      id name environment
      receivedInvoices(first: $first, after: $after, filter: $filter) {
        edges {
          node {
            id irn supplierTin supplierName invoiceTypeCode issueDate currency payableAmount sealed confirmed confirmedAt
            decision decisionReason decidedAt receivedAt
          }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);
