import{m as e}from"./index-DEOGSRKa.js";const n=e(`
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
`),d=e(`
  query Invoice($id: ID!) {
    invoice(id: $id) {
      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference
      paymentStatus qrCodeData pendingCall nrsError { id message }
      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`),i=e(`
  subscription InvoiceUpdated($id: ID!) {
    invoiceUpdated(id: $id) {
      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference
      paymentStatus qrCodeData pendingCall nrsError { id message }
      createdAt updatedAt signedAt transmittedAt confirmedAt deadlineAt deadlineAtRisk deadlineMissed
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`),o=e(`
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
`),s=e(`
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
`),r=e(`
  mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) { id enabled disabledReason }
  }
`),p=e(`
  mutation DeleteWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
    deleteWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { id deleted }
  }
`),c=e(`
  mutation RotateWebhookEndpointSecret($projectId: ID!, $endpointId: ID!, $graceSeconds: Int) {
    rotateWebhookEndpointSecret(projectId: $projectId, endpointId: $endpointId, graceSeconds: $graceSeconds) {
      secret endpoint { id url secretLast4 previousSecretExpiresAt }
    }
  }
`),u=e(`
  mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
    testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }
  }
`),I=e(`
  mutation RedeliverEvent($eventId: ID!, $endpointId: ID) {
    redeliverEvent(eventId: $eventId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }
  }
`),l=e(`
  query SandboxFaults($id: ID!) {
    project(id: $id) { id name environment }
    sandboxFaults(projectId: $id) { kind endpoint status rate retryAfter startsAt endsAt }
  }
`),$=e(`
  mutation SetSandboxFault($projectId: ID!, $input: SandboxFaultInput!) {
    setSandboxFault(projectId: $projectId, input: $input) { kind endpoint status rate retryAfter startsAt endsAt }
  }
`),v=e(`
  mutation ClearSandboxFaults($projectId: ID!, $kind: String, $endpoint: String) {
    clearSandboxFaults(projectId: $projectId, kind: $kind, endpoint: $endpoint)
  }
`);export{a as C,p as D,s as E,d as I,c as R,l as S,u as T,r as U,i as a,n as b,o as c,I as d,v as e,$ as f};
