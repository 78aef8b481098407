// Every GraphQL operation of the portal, typed by GraphQL Code Generator
// from graph/*.graphqls (run `npm run codegen`).
import { graphql } from '../gql';

export const SignupDoc = graphql(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) { accessToken expiresIn user { id email } organization { id } }
  }
`);

export const LoginDoc = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) { accessToken expiresIn user { id email } organizations { id } }
  }
`);

export const LogoutDoc = graphql(`
  mutation Logout {
    logout { revoked }
  }
`);

export const EndSessionDoc = graphql(`
  mutation EndSession {
    endSession { ended }
  }
`);

export const OrgsDoc = graphql(`
  query Orgs {
    me { id email organizations(first: 200) { edges { node { id name slug role } } } }
  }
`);

export const CreateOrgDoc = graphql(`
  mutation CreateOrg($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name slug role }
  }
`);

export const OrgProjectsDoc = graphql(`
  query OrgProjects($id: ID!) {
    organization(id: $id) {
      id name role
      projects(first: 200) { edges { node { id name environment createdAt authority { configured } } } }
    }
  }
`);

export const CreateProjectDoc = graphql(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id name environment }
  }
`);

export const ProjectDoc = graphql(`
  query Project($id: ID!) {
    project(id: $id) {
      id name environment createdAt
      organization { id name role }
      authority {
        taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials
      }
    }
  }
`);

export const UpdateAuthorityDoc = graphql(`
  mutation UpdateAuthority($projectId: ID!, $input: UpdateProjectAuthorityInput!) {
    updateProjectAuthority(projectId: $projectId, input: $input) {
      id authority { taxAuthorityCode businessId serviceId configured qrEncryption publicKeyFingerprint baseUrl hasApiCredentials }
    }
  }
`);

export const KeysDoc = graphql(`
  query Keys($id: ID!) {
    apiKeyScopes
    project(id: $id) {
      id name environment
      apiKeys(first: 200) {
        edges { node { id keyName clientId secretLast4 scopes status createdAt lastUsedAt rotatedAt revokedAt } }
      }
    }
  }
`);

export const CreateKeyDoc = graphql(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { clientSecret key { id keyName clientId scopes } }
  }
`);

export const RotateKeyDoc = graphql(`
  mutation RotateKey($projectId: ID!, $keyId: ID!, $graceSeconds: Int) {
    rotateApiKey(projectId: $projectId, keyId: $keyId, graceSeconds: $graceSeconds) { clientSecret key { id keyName clientId } }
  }
`);

export const RevokeKeyDoc = graphql(`
  mutation RevokeKey($projectId: ID!, $keyId: ID!) {
    revokeApiKey(projectId: $projectId, keyId: $keyId) { id status revokedAt }
  }
`);

export const RunsDoc = graphql(`
  query Runs($id: ID!, $after: String) {
    project(id: $id) {
      id name authority { configured }
      certificationRuns(first: 20, after: $after) {
        edges { node { id status invoiceType issueDate irn failureReason createdAt finishedAt } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`);

export const StartRunDoc = graphql(`
  mutation StartRun($input: StartCertificationRunInput!) {
    startCertificationRun(input: $input) { id status }
  }
`);


export const RunDoc = graphql(`
  query Run($id: ID!) {
    certificationRun(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`);

export const RunUpdatedDoc = graphql(`
  subscription RunUpdated($id: ID!) {
    certificationRunUpdated(id: $id) {
      id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
      temporal { workflowId runId uiUrl }
      steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }
    }
  }
`);

export const UsageDoc = graphql(`
  query Usage($id: ID!, $from: String, $to: String, $keyId: ID) {
    project(id: $id) {
      id name
      apiKeys(first: 200) { edges { node { id keyName status } } }
      usage(from: $from, to: $to, keyId: $keyId) {
        from to total keyId
        byOperation { operation count }
        daily { date operation count }
      }
    }
  }
`);

export const AuditDoc = graphql(`
  query Audit($org: ID, $action: String, $after: String) {
    auditActions
    auditLogs(organizationId: $org, action: $action, first: 25, after: $after) {
      edges { node { id action createdAt ip userAgent requestId hash prevHash actor { type id } actorEmail target { type id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

// The organization's hash chain, verified by the server (results are reused
// for 10 seconds); fetched apart from the entries so that paging and
// filtering never re-verify it.
export const AuditChainDoc = graphql(`
  query AuditChain($org: ID!) {
    organization(id: $org) {
      id
      auditChain { organizationId valid entries headSeq headHash problem brokenEntryId verifiedAt }
    }
  }
`);

export const ValidateDoc = graphql(`
  query ValidateInvoice($projectId: ID!, $input: ValidateInvoiceInput!) {
    project(id: $projectId) { id validationProfile }
    validateInvoice(projectId: $projectId, input: $input) {
      valid schemaVersion ruleset
      errors { rule severity path loc message }
      warnings { rule severity path loc message }
    }
  }
`);

export const IrnDoc = graphql(`
  mutation GenerateIrn($projectId: ID!, $input: GenerateIrnInput!) {
    generateIrn(projectId: $projectId, input: $input) { irn invoiceReference serviceId issueDate }
  }
`);

export const QrDoc = graphql(`
  query InvoiceQr($projectId: ID!, $input: InvoiceQrCodeInput!) {
    invoiceQrCode(projectId: $projectId, input: $input, png: true) { irn timestamp qrPayload encryption keyFingerprint qrPngBase64 }
  }
`);

export const RenderDoc = graphql(`
  query RenderInvoice($projectId: ID!, $input: RenderInvoiceInput!) {
    renderInvoice(projectId: $projectId, input: $input, pdf: true) { valid irn pdfBase64 }
  }
`);

export const SampleDoc = graphql(`
  query InvoiceSample($projectId: ID!, $invoiceType: String!) {
    invoiceSample(projectId: $projectId, invoiceType: $invoiceType)
  }
`);

export const SubmitInvoiceDoc = graphql(`
  mutation SubmitInvoice($input: SubmitInvoiceInput!) {
    submitInvoice(input: $input) { id irn status }
  }
`);
