/**
 * The case list's exports: Ekspor Data (the list's filters as an Excel file, rewritten by the gateway
 * without reporter identity) and Ekspor Jejak Audit (the audit trail of the list's period as CSV,
 * types 1 and 2; the gateway scopes it to the caller). The gateway names the files; the names here
 * are only used when it does not.
 */
import { Button, HStack } from '@chakra-ui/react';
import { can, UI_MESSAGES } from '@wbs/shared';
import type { Subject } from '@wbs/shared/permissions';
import { type Download, download } from '../../api/client.ts';
import { saveFile } from '../../ui/saveFile.ts';
import { notify } from '../../ui/toaster.tsx';
import { exportOf, type Filters } from './filters.ts';

/** Announces the export, saves the file the gateway sends, or shows why it could not. */
async function saveExport(file: () => Promise<Download>, fallbackName: () => string) {
  notify.info(UI_MESSAGES.exporting);
  try {
    const { blob, fileName } = await file();
    saveFile(blob, fileName ?? fallbackName());
  } catch (error) {
    notify.problem(error);
  }
}

export function CaseExports(props: {
  subject: Subject;
  filters: Filters;
  picksCompany: boolean;
  /** No company chosen yet: nothing to export. */
  waitingForCompany: boolean;
}) {
  const { subject, filters } = props;
  const exportData = () =>
    saveExport(
      () => download.POST('/api/v1/cases/export', { body: exportOf(filters, props.picksCompany) }),
      () => `AllCases - ${new Date().toLocaleString('sv-SE').replace(/:/g, '.')}.xlsx`,
    );
  const exportAuditTrail = () =>
    saveExport(
      () =>
        download.GET('/api/v1/audit-trail/export', {
          params: { query: { from: filters.from, to: filters.to } },
        }),
      () => `JejakAudit ${filters.from} sd ${filters.to}.csv`,
    );
  return (
    <HStack gap="3" wrap="wrap">
      {can(subject, 'cases:export') && (
        <Button variant="outline" onClick={exportData} disabled={props.waitingForCompany}>
          Ekspor Data
        </Button>
      )}
      {can(subject, 'audit-trail:export') && (
        <Button variant="outline" onClick={exportAuditTrail}>
          Ekspor Jejak Audit
        </Button>
      )}
    </HStack>
  );
}
