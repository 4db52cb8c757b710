import { Button, Dialog, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import {
  caseLineClosed,
  caseLineForLog,
  caseLogSchema,
  FIELD_LIMITS,
  isFinalStatus,
  nextStatusChoices,
  presetLogStatus,
  requiresCaseLine,
  STATUS_NEW_ID,
  USER_TYPES,
  type UserTypeId,
} from '@wbs/shared';
import { UPLOAD_DRAFT_HEADER } from '@wbs/shared/api/uploads';
import { useRef, useState } from 'react';
import { ApiError, api, read, upload } from '../api/client.ts';
import type { User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { fileProblem } from '../case/attachments.ts';
import type { CaseDetail } from '../case/detail.ts';
import { newIdempotencyKey } from '../case/messages/access.ts';
import { useResumableUploads } from '../case/resumableUploads.ts';
import { FilePicker } from '../case/wizard/FilePicker.tsx';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { FormField } from '../ui/FormField.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { validate } from '../ui/validate.ts';

/** The types that handle cases (the company's and the partner's admins and staff). */
const HANDLER_TYPES: readonly UserTypeId[] = [
  USER_TYPES.COMPANY_ADMIN,
  USER_TYPES.PARTNER,
  USER_TYPES.COMPANY_STAFF,
  USER_TYPES.PARTNER_STAFF,
];

/**
 * Buat Catatan Aktivitas: status, line (when routing), note and one attachment. The choices follow
 * the legacy's status table (shared/src/status.ts); the gateway enforces the same rules, and its field
 * errors are shown on their fields. The attachment uploads as soon as it is chosen, resumably, into a
 * draft of this case and this user (the wizard's file row: progress, Jeda/Lanjutkan, a refusal next to
 * it); Simpan files the draft with the entry, once per Idempotency-Key.
 */
export function CaseLogDialog(props: { detail: CaseDetail; user: User; onClose: (saved: boolean) => void }) {
  const { detail, user } = props;
  // A case without a status is a new one (as the gateway's handling clocks read it).
  const currentStatusId = detail.status?.id ?? STATUS_NEW_ID;
  const needsLine = requiresCaseLine(currentStatusId);
  const statuses = useApi(HANDLER_TYPES.includes(user.userTypeId) ? read('/api/v1/case-statuses') : null);
  const lines = useApi(read('/api/v1/case-lines'));
  const choices = nextStatusChoices(statuses.data?.items ?? [], currentStatusId);
  const current = statuses.data?.items.find((s) => s.id === currentStatusId);
  const final = current !== undefined && isFinalStatus(current);
  const [pickedStatusId, setStatusId] = useState<number>(presetLogStatus(currentStatusId) ?? 0);
  // A final status is the only choice: preselected, so a note needs no extra step.
  const statusId = pickedStatusId || (final ? currentStatusId : 0);
  const [caseLineId, setCaseLineId] = useState<number>(detail.caseLineId ?? user.caseLineId ?? 0);
  const [message, setMessage] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const uploads = useResumableUploads(() =>
    api.POST('/api/v1/cases/{id}/logs/upload-drafts', { params: { path: { id: String(detail.id) } } }),
  );
  // One key per entry the user saves: Simpan again after a lost answer reuses it, an edited entry
  // (other status, line, note or file) gets a new one.
  const key = useRef<{ key: string; entry: string } | null>(null);
  const confirm = useConfirm();
  const loading = useLoading();
  // Company staff cannot reroute (spec §6); past id 11 the line is no longer chosen (spec §4).
  const lineDisabled = user.userTypeId === USER_TYPES.COMPANY_STAFF || caseLineClosed(currentStatusId);

  const choose = ([picked]: File[]) => {
    if (!picked) return;
    const problem = fileProblem(picked);
    if (problem) {
      notify.warning(problem);
      return;
    }
    if (file) uploads.remove(file);
    uploads.add(picked, 'attachments');
    setFile(picked);
  };

  async function save() {
    const result = validate(caseLogSchema(needsLine), {
      statusId,
      caseLineId: needsLine ? caseLineId : caseLineId || null,
      message,
    });
    setErrors(result.errors);
    if (!result.ok) return;
    const ok = await confirm({
      title: 'Simpan Status Pengaduan',
      message: 'Anda yakin ingin menyimpan status pengaduan ini ?',
      actionLabel: 'Simpan',
    });
    if (!ok) return;
    setBusy(true);
    loading.show();
    const entry = JSON.stringify([
      statusId,
      caseLineId,
      message.trim(),
      file?.name ?? null,
      file?.size ?? null,
    ]);
    if (key.current?.entry !== entry) key.current = { key: newIdempotencyKey(), entry };
    try {
      // An attachment still on its way is waited for (its row shows how far it is).
      if (file && uploads.mode === 'resumable') {
        loading.show('Menunggu unggahan file selesai...');
        await uploads.settled();
        loading.show();
      }
      const draftToken = file ? await uploads.token() : null;
      const form = new FormData();
      form.append('statusId', String(statusId));
      const line = caseLineForLog(currentStatusId, caseLineId || null);
      if (line !== null) form.append('caseLineId', String(line));
      form.append('message', message.trim());
      if (file && draftToken === null) form.append('attachment', file, file.name);
      const reply = await upload('/api/v1/cases/{id}/logs', form, {
        params: { path: { id: String(detail.id) } },
        headers: {
          'Idempotency-Key': key.current.key,
          ...(draftToken === null ? {} : { [UPLOAD_DRAFT_HEADER]: draftToken }),
        },
        onProgress: (f) => loading.progress(file && draftToken === null ? f : null),
      });
      key.current = null;
      if (reply?.message) notify.success(reply.message);
      props.onClose(true);
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0 && error.status < 500) key.current = null;
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
        setErrors(error.fieldErrors);
      }
      notify.problem(error);
    } finally {
      loading.hide();
      setBusy(false);
    }
  }

  return (
    <Dialog.Root
      open
      placement="center"
      onOpenChange={(e) => {
        if (!e.open && !busy) props.onClose(false);
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Buat Catatan Aktivitas</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text fontSize="sm" color="fg.muted">
                  {detail.number} — status saat ini: {detail.status?.name ?? '-'}
                </Text>
                {final && (
                  <Text fontSize="sm">
                    Laporan sudah berstatus akhir: statusnya tidak dapat diubah lagi, hanya catatan yang dapat
                    ditambahkan.
                  </Text>
                )}
                <FormField label="Status" error={errors.statusId} required>
                  <SelectInput
                    name="statusId"
                    value={statusId}
                    options={choices}
                    loading={statuses.isLoading}
                    placeholder="Pilih Status"
                    onChange={setStatusId}
                  />
                </FormField>
                <FormField
                  label="Jalur Otorisasi"
                  error={errors.caseLineId}
                  required={needsLine}
                  disabled={lineDisabled}
                >
                  <SelectInput
                    name="caseLineId"
                    value={caseLineId}
                    options={lines.data?.items ?? []}
                    loading={lines.isLoading}
                    disabled={lineDisabled}
                    placeholder="Pilih Jalur Otorisasi"
                    onChange={setCaseLineId}
                  />
                </FormField>
                <FormField label="Catatan Aktivitas" error={errors.message} required>
                  <Textarea
                    name="message"
                    rows={4}
                    value={message}
                    maxLength={FIELD_LIMITS.longText}
                    onChange={(e) => setMessage(e.target.value)}
                  />
                </FormField>
                <FilePicker
                  label="Lampiran"
                  name="attachment"
                  helper="Opsional, satu file, maksimal 10 MB."
                  error={errors.attachment}
                  files={file ? [file] : []}
                  fileErrors={{}}
                  onChoose={choose}
                  onRemove={() => {
                    if (file) uploads.remove(file);
                    key.current = null;
                    setFile(null);
                  }}
                  statusOf={(picked) => uploads.statuses.get(picked as File)}
                  onPause={(picked) => uploads.pause(picked as File)}
                  onResume={(picked) => uploads.resume(picked as File)}
                />
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => props.onClose(false)} disabled={busy}>
                Batal
              </Button>
              <Button onClick={save} loading={busy}>
                Simpan
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
