// The portal's sections. A project's sections are tabs in this order; a new
// capability of the API (invoice submission, webhooks) adds its screen to
// app.tsx's routes and one entry here.
export interface Section {
  path: string;
  label: string;
}

export const projectSections: Section[] = [
  { path: '', label: 'Overview' },
  { path: '/keys', label: 'API keys' },
  { path: '/certification', label: 'Certification' },
  { path: '/usage', label: 'Usage' },
  { path: '/workbench', label: 'Workbench' },
  { path: '/invoices', label: 'Invoices' },
  { path: '/inbox', label: 'Inbox' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/sandbox', label: 'Sandbox faults' },
];

export const orgSections: Section[] = [
  { path: '/projects', label: 'Projects' },
  { path: '/audit', label: 'Audit log' },
];

/** currentOrg remembers the organization last opened, for "/" and the switcher. */
export const lastOrgKey = 'einvoice.org';
