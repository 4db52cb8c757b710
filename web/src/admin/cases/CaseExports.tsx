/**
 * The case list's exports: Ekspor Data (the list's filters as an Excel file, rewritten by the gateway
 * without reporter identity) and Ekspor Jejak Audit (the audit trail of the list's period as CSV,
 * types 1 and 2; the gateway scopes it to the caller). The gateway names the files; the names here
 * are only used when it does not. The overdue and area filters are the gateway's case index's, which
 * the legacy's export knows nothing of: the export leaves them out and a note under it says so.
 */
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { can, UI_MESSAGES } from '@wbs/shared';
import type { Subject } from '@wbs/shared/permissions';
import { type Download, download } from '../../api/client.ts';
import { saveFile } from '../../ui/saveFile.ts';
import { notify } from '../../ui/toaster.tsx';
import { exportOf, type Filters, indexOnlyFiltersOf } from './filters.ts';

/**
 * Under Ekspor Data while the list is filtered by what only the gateway's case index knows. {filters}:
 * "terlambat", "wilayah" or both.
 */
const EXPORT_WITHOUT_INDEX_FILTERS =
  'Filter {filters} tidak berlaku untuk Ekspor Data: file berisi semua laporan yang sesuai dengan filter lainnya';

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
  const unapplied = can(subject, 'cases:export') ? indexOnlyFiltersOf(filters) : [];
  return (
    <Stack gap="2">
      <HStack gap="3" wrap="wrap">
        {can(subject, 'cases:export') && (
          <Button
            variant="outline"
            onClick={exportData}
            disabled={props.waitingForCompany}
            aria-describedby={unapplied.length > 0 ? 'export-unapplied-filters' : undefined}
          >
            Ekspor Data
          </Button>
        )}
        {can(subject, 'audit-trail:export') && (
          <Button variant="outline" onClick={exportAuditTrail}>
            Ekspor Jejak Audit
          </Button>
        )}
      </HStack>
      {unapplied.length > 0 && (
        <Text id="export-unapplied-filters" fontSize="sm" color="fg.muted">
          {EXPORT_WITHOUT_INDEX_FILTERS.replace('{filters}', unapplied.join(' dan '))}
        </Text>
      )}
    </Stack>
  );
}
