// Invoices from a spreadsheet: upload a CSV or XLSX file of the template,
// see every row's errors before anything is sent, submit the valid invoices
// as one batch, follow the batch live and download the result file (the IRN
// of each row, or its error). And, on a confirmed invoice, the credit and
// debit notes built from it.
import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/client';
import {
  CreateInvoiceNoteDoc,
  InvoiceBatchDoc,
  InvoiceSheetColumnsDoc,
  InvoiceUblDoc,
  PreviewInvoiceSheetDoc,
  SubmitInvoiceBatchDoc,
} from '../api/ops-submission';
import type { PreviewInvoiceSheetQuery, SheetBatchQuery } from '../gql/graphql';
import { Badge, ErrorBox, Field, FormError, fieldErrors } from '../ui/kit';

type Preview = PreviewInvoiceSheetQuery['previewInvoiceSheet'];
type Batch = SheetBatchQuery['invoiceBatch'];

const finalItem = (s: string) => !['accepted', 'queued', 'submitting', 'signed', 'transmitted', 'outcome_unknown'].includes(s);

/** base64Of reads a file as base64. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const csvCell = (v: string | number | null | undefined) => {
  const s = v == null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** resultCSV is the result file: one line per row of the spreadsheet, with its invoice's IRN and status, or the row's errors. */
export function resultCSV(preview: Preview, submitted: Preview['invoices'], batch: Batch | undefined): string {
  const errors = new Map<number, string[]>();
  for (const e of preview.errors) errors.set(e.row, [...(errors.get(e.row) ?? []), e.column ? `${e.column}: ${e.message}` : e.message]);
  const byRef = new Map<string, number>();
  submitted.forEach((inv, i) => byRef.set(inv.invoiceReference, i));
  const lines = ['row,invoice_reference,status,irn,error'];
  for (const inv of preview.invoices) {
    const i = byRef.get(inv.invoiceReference);
    const item = i != null ? batch?.items[i] : undefined;
    for (const row of inv.rows) {
      const own = errors.get(row) ?? [];
      let status = 'not_sent';
      let irn = '';
      let error = own.join('; ');
      if (item) {
        status = item.status;
        irn = item.irn ?? '';
        if (item.problems.length) error = item.problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ');
        if (item.error) error = item.error.detail;
      } else if (!error && !inv.valid) {
        error = 'the invoice has errors on another row';
      }
      lines.push([row, inv.invoiceReference, status, irn, error].map(csvCell).join(','));
    }
  }
  return lines.join('\n') + '\n';
}

export function SheetUpload(props: { projectId: string; onSubmitted?: () => void }) {
  const [file, setFile] = useState<File>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [preview, setPreview] = useState<Preview>();
  const [submitted, setSubmitted] = useState<Preview['invoices']>([]);
  const [batchId, setBatchId] = useState<string>();
  const [batch, setBatch] = useState<Batch>();

  // The batch's progress, live: read every second until every item is final.
  useEffect(() => {
    if (!batchId) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () =>
      request(InvoiceBatchDoc, { id: batchId }).then(
        (d) => {
          if (stop) return;
          setBatch(d.invoiceBatch);
          if (d.invoiceBatch.items.some((it) => !finalItem(it.status))) timer = setTimeout(poll, 1000);
          else props.onSubmitted?.();
        },
        (e) => !stop && setError(e),
      );
    poll();
    return () => {
      stop = true;
      if (timer) clearTimeout(timer);
    };
  }, [batchId]);

  const check = async (e: Event) => {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(undefined);
    setPreview(undefined);
    setBatch(undefined);
    setBatchId(undefined);
    try {
      const content = await base64Of(file);
      const d = await request(PreviewInvoiceSheetDoc, { projectId: props.projectId, fileName: file.name, content });
      setPreview(d.previewInvoiceSheet);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    if (!preview) return;
    const good = preview.invoices.filter((inv) => inv.valid && inv.payload);
    setBusy(true);
    setError(undefined);
    try {
      const d = await request(SubmitInvoiceBatchDoc, {
        projectId: props.projectId,
        invoices: good.map((inv) => ({
          projectId: props.projectId,
          invoiceType: inv.invoiceType ?? 'B2B',
          invoiceReference: inv.invoiceReference,
          payload: inv.payload,
        })),
      });
      setSubmitted(good);
      setBatch(d.submitInvoiceBatch);
      setBatchId(d.submitInvoiceBatch.id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const template = async () => {
    const d = await request(InvoiceSheetColumnsDoc);
    download('einvoice-invoices-template.csv', 'text/csv', d.invoiceSheetColumns.map((c) => c.name).join(',') + '\n');
  };

  const counts = (preview?.counts ?? {}) as Record<string, number>;
  const valid = preview?.invoices.filter((i) => i.valid).length ?? 0;
  const progress = batch?.counts.filter((c) => c.count > 0) ?? [];
  const done = batch ? batch.items.every((it) => finalItem(it.status)) : false;
  return (
    <section class="panel" aria-labelledby="sheet-title" data-testid="sheet-upload">
      <h2 id="sheet-title">Upload a spreadsheet</h2>
      <p class="small">
        A CSV or XLSX file with one row per invoice line; the rows of one invoice share its <code>invoice_reference</code>. Every row is
        checked before anything is sent; the valid invoices then go as one batch (at most 100).{' '}
        <button type="button" class="link" onClick={template}>
          Download the template
        </button>
      </p>
      <form onSubmit={check} aria-label="Spreadsheet upload">
        <label>
          File (CSV or XLSX)
          <input
            type="file"
            name="sheet"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            data-testid="sheet-file"
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0])}
          />
        </label>
        <div class="buttons">
          <button type="submit" disabled={!file || busy}>
            Check the file
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
      {preview && (
        <div data-testid="sheet-preview">
          <p role="status">
            <strong data-testid="sheet-counts">
              {counts.rows} rows, {counts.invoices} invoices: {valid} ready, {counts.invalid} with errors
            </strong>{' '}
            ({counts.rows_with_errors} rows with errors)
          </p>
          {preview.errors.length > 0 && (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Row errors">
              <table data-testid="sheet-errors">
                <caption class="sr-only">Errors by row</caption>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    <th scope="col">Column</th>
                    <th scope="col">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.errors.map((e, i) => (
                    <tr key={i} data-row={e.row}>
                      <th scope="row">{e.row}</th>
                      <td>{e.column ? <code>{e.column}</code> : '—'}</td>
                      <td>{e.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {!batchId && (
            <div class="buttons">
              <button type="button" disabled={busy || valid === 0} onClick={submit} data-testid="sheet-submit">
                Submit {valid} valid invoice{valid === 1 ? '' : 's'} as one batch
              </button>
            </div>
          )}
        </div>
      )}
      {batch && (
        <div data-testid="sheet-batch" aria-live="polite">
          <h3>
            Batch <code>{batch.id}</code> {done ? <Badge tone="ok">done</Badge> : <Badge tone="info">in progress</Badge>}
          </h3>
          <ul class="inline-list" data-testid="sheet-progress">
            {progress.map((c) => (
              <li key={c.status} data-status={c.status}>
                {c.status.replace('_', ' ')}: <strong>{c.count}</strong>
              </li>
            ))}
          </ul>
          <button type="button" class="secondary" data-testid="sheet-result" onClick={() => download(`batch-${batch.id}-result.csv`, 'text/csv', resultCSV(preview!, submitted, batch))}>
            Download the result file
          </button>
        </div>
      )}
    </section>
  );
}

/** NotePanel builds a credit or debit note of a confirmed invoice, and offers its UBL. */
export function NotePanel(props: { invoiceId: string; projectId: string; irn: string }) {
  const [kind, setKind] = useState<'credit' | 'debit'>('credit');
  const [error, setError] = useState<unknown>();
  const [made, setMade] = useState<{ id: string; irn: string; invoiceTypeCode: string }>();
  const [busy, setBusy] = useState(false);
  const fe = fieldErrors(error);
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const s = (k: string) => String(f.get(k) ?? '').trim();
    const lines = s('line') !== '' ? [{ line: Number(s('line')), ...(s('quantity') ? { quantity: s('quantity') } : {}), ...(s('amount') ? { amount: s('amount') } : {}) }] : null;
    const input = { invoiceReference: s('invoiceReference'), issueDate: s('issueDate') || null, note: s('note') || null, lines };
    setBusy(true);
    setError(undefined);
    try {
      const out = await request(CreateInvoiceNoteDoc, { invoiceId: props.invoiceId, kind: kind === 'credit' ? 'CREDIT' : 'DEBIT', input });
      setMade(out.createInvoiceNote);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const ubl = async () => {
    try {
      const d = await request(InvoiceUblDoc, { id: props.invoiceId });
      if (d.invoice.ubl) download(`${props.irn}.xml`, 'application/xml', d.invoice.ubl);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section class="panel" aria-labelledby="note-title" data-testid="note-panel">
      <h2 id="note-title">Credit or debit note</h2>
      <p class="small">
        Built from this invoice (NRS's 380 Credit Note or 384 Debit Note, referencing <code>{props.irn}</code>) and submitted like any
        invoice. Leave the line empty to credit the whole invoice.{' '}
        <button type="button" class="link" onClick={ubl} data-testid="download-ubl">
          Download this invoice as UBL 2.1
        </button>
      </p>
      <form onSubmit={submit} aria-label="Note">
        <fieldset class="inline">
          <legend>Kind</legend>
          <label>
            <input type="radio" name="kind" value="credit" checked={kind === 'credit'} onChange={() => setKind('credit')} /> Credit note
          </label>
          <label>
            <input type="radio" name="kind" value="debit" checked={kind === 'debit'} onChange={() => setKind('debit')} /> Debit note
          </label>
        </fieldset>
        <Field label="Note number" name="invoiceReference" required error={fe.invoice_reference} hint="Letters and digits: the note's IRN starts with it." />
        <Field label="Issue date" name="issueDate" type="date" error={fe.issue_date} />
        <Field label="Reason" name="note" error={fe.note} />
        <Field label="Line (from 0)" name="line" type="number" min="0" error={fe['lines.0.line'] ?? fe.lines} />
        <Field label="Quantity" name="quantity" inputMode="decimal" />
        <Field label="Amount" name="amount" inputMode="decimal" />
        <FormError error={error} fields={['invoice_reference', 'issue_date', 'note', 'lines', 'lines.0.line']} />
        <div class="buttons">
          <button type="submit" disabled={busy} data-testid="note-submit">
            Submit the {kind} note
          </button>
        </div>
      </form>
      {made && (
        <p role="status" data-testid="note-made">
          Submitted: <a href={`/projects/${props.projectId}/invoices/${made.id}`}><code>{made.irn}</code></a> (type {made.invoiceTypeCode})
        </p>
      )}
    </section>
  );
}
