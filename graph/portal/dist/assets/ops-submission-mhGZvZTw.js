import{l as e}from"./index-BxLtE9gM.js";const n=e(`
  query Invoices($id: ID!, $first: Int, $after: String, $filter: InvoiceFilter) {
    project(id: $id) {
      id name environment
      invoices(first: $first, after: $after, filter: $filter) {
        edges {
          node { id irn status invoiceType invoiceTypeCode issueDate customerTin paymentStatus createdAt updatedAt confirmedAt }
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
      createdAt updatedAt signedAt transmittedAt confirmedAt
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`),o=e(`
  subscription InvoiceUpdated($id: ID!) {
    invoiceUpdated(id: $id) {
      id projectId irn status invoiceType invoiceTypeCode payloadHash issueDate customerTin billingReference
      paymentStatus qrCodeData pendingCall nrsError { id message }
      createdAt updatedAt signedAt transmittedAt confirmedAt
      events { seq kind fromStatus toStatus operation attempt latencyMs httpStatus nrsErrorId requestBody responseBody message createdAt }
    }
  }
`),i=e(`
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
`),r=e(`
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { secret endpoint { id url secretLast4 } }
  }
`),a=e(`
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
`),I=e(`
  mutation TestWebhookEndpoint($projectId: ID!, $endpointId: ID!) {
    testWebhookEndpoint(projectId: $projectId, endpointId: $endpointId) { eventId deliveries { deliveryId endpointId } }
  }
`),u=e(`
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
`);export{r as C,p as D,s as E,d as I,c as R,l as S,I as T,a as U,o as a,n as b,i as c,u as d,v as e,$ as f};
