import{m as e}from"./index-DZKB4naa.js";const n=e(`
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
`),i=e(`
  query Invoice($id: ID!) {
    invoice(id: $id) {
      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference
      paymentStatus qrCodeData qrPngBase64 pendingCall nrsError { id message }
      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`),o=e(`
  query InvoicePdf($id: ID!) {
    invoice(id: $id) { id irn pdfBase64 }
  }
`),d=e(`
  subscription InvoiceUpdated($id: ID!) {
    invoiceUpdated(id: $id) {
      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference
      paymentStatus qrCodeData qrPngBase64 pendingCall nrsError { id message }
      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`),s=e(`
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
`),r=e(`
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
`),a=e(`
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { secret endpoint { id url secretLast4 } }
  }
`),c=e(`
  mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) { id enabled disabledReason }
  }
`),p=e(`
  mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
    deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { id deleted }
  }
`),u=e(`
  mutation RotateWebhookEndpointSecret($projectId: ID!, $endpointId: ID!, $graceSeconds: Int) {
    rotateWebhookEndpointSecret(projectId: $projectId, endpointId: $endpointId, graceSeconds: $graceSeconds) {
      secret endpoint { id url secretLast4 previousSecretExpiresAt }
    }
  }
`),I=e(`
  mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
    testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }
  }
`),l=e(`
  mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {
    redeliverEvent(eventId: $eventId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }
  }
`),v=e(`
  query SandboxFaults($id: ID!) {
    project(id: $id) { id name environment }
    sandboxFaults(projectId: $id) { kind endpoint status rate retryAfter startsAt endsAt }
  }
`),$=e(`
  mutation SetSandboxFault($projectId: ID!, $input: SandboxFaultInput!) {
    setSandboxFault(projectId: $projectId, input: $input) { kind endpoint status rate retryAfter startsAt endsAt }
  }
`),m=e(`
  mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {
    clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)
  }
`),D=e(`
  query InvoiceSheetColumns {
    invoiceSheetColumns { name level required description }
  }
`),S=e(`
  query PreviewInvoiceSheet($projectId: ID!, $fileName: String!, $content: String!) {
    previewInvoiceSheet(projectId: $projectId, fileName: $fileName, contentBase64: $content) {
      rowCount counts
      errors { row column message }
      invoices { invoiceReference invoiceType rows valid payload }
    }
  }
`),f=e(`
  mutation SubmitSheetBatch($projectId: ID!, $invoices: [SubmitInvoiceInput!]!) {
    submitInvoiceBatch(projectId: $projectId, invoices: $invoices) {
      id itemCount counts { status count }
      items { index status invoiceId irn problems { loc msg } error { code detail } }
    }
  }
`),b=e(`
  query SheetBatch($id: ID!) {
    invoiceBatch(id: $id) {
      id itemCount counts { status count }
      items { index status invoiceId irn problems { loc msg } error { code detail } }
    }
  }
`),y=e(`
  mutation CreateInvoiceNote($invoiceId: ID!, $kind: InvoiceNoteKind!, $input: InvoiceNoteInput!) {
    createInvoiceNote(invoiceId: $invoiceId, kind: $kind, input: $input) { id irn status invoiceTypeCode billingReference }
  }
`),g=e(`
  query InvoiceUbl($id: ID!) {
    invoice(id: $id) { id irn ubl }
  }
`),h=e(`
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
`);export{y as C,p as D,r as E,b as I,S as P,u as R,f as S,I as T,c as U,g as a,D as b,i as c,d,n as e,o as f,s as g,a as h,l as i,v as j,m as k,$ as l,h as m};
