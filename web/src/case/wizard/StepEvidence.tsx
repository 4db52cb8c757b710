import { Input, Stack } from '@chakra-ui/react';
import { DEFAULT_CHANNEL_ID, FIELD_LIMITS } from '@wbs/shared';
import { read } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { FormField } from '../../ui/FormField.tsx';
import { SelectInput } from '../../ui/SelectInput.tsx';
import { notify } from '../../ui/toaster.tsx';
import { ACCEPTED_FILES_HELP, addAttachments, checkEvidence } from '../attachments.ts';
import { CasePasswordFields } from './CasePasswordFields.tsx';
import { FilePicker, type PickedFile } from './FilePicker.tsx';
import { InvolvedTable } from './InvolvedTable.tsx';
import { bindText, type StepProps } from './types.ts';

/** Step 4 of 4, Bukti Pendukung: files, link, people involved, then channel (staff) or password (guest). */
export function StepEvidence({ state, errors, fileErrors, update, ctx, uploads }: StepProps) {
  const channels = useApi(ctx.signedIn ? read('/api/v1/channels') : null);

  const chooseEvidence = ([file]: File[]) => {
    if (!file) return;
    const problem = checkEvidence(file, state.attachments);
    if (problem) {
      notify.warning(problem);
      return;
    }
    if (state.evidence) uploads.remove(state.evidence);
    update({ evidence: file });
    uploads.add(file, 'evidence');
  };

  const chooseAttachments = (files: File[]) => {
    const result = addAttachments(state.evidence, state.attachments, files);
    if (result.messages.length > 0) notify.warning(result.messages);
    update({ attachments: result.attachments });
    for (const file of result.attachments)
      if (!state.attachments.includes(file)) uploads.add(file, 'attachments');
  };
  const statusOf = (file: PickedFile) => uploads.statuses.get(file as File);
  const pause = (file: PickedFile) => uploads.pause(file as File);
  const resume = (file: PickedFile) => uploads.resume(file as File);

  return (
    <Stack gap="6">
      <FilePicker
        label="Bukti Pendukung"
        name="evidence"
        required
        error={errors.evidence}
        helper={ACCEPTED_FILES_HELP}
        files={state.evidence ? [state.evidence] : []}
        fileErrors={fileErrors}
        onChoose={chooseEvidence}
        onRemove={() => {
          if (state.evidence) uploads.remove(state.evidence);
          update({ evidence: null });
        }}
        statusOf={statusOf}
        onPause={pause}
        onResume={resume}
      />

      <FilePicker
        label="Lampiran Lainnya"
        name="attachments"
        multiple
        error={errors.attachments}
        helper="Opsional. Total lampiran termasuk Bukti Pendukung paling banyak 5 file."
        files={state.attachments}
        fileErrors={fileErrors}
        onChoose={chooseAttachments}
        onRemove={(file) => {
          uploads.remove(file as File);
          update({ attachments: state.attachments.filter((f) => f !== file) });
        }}
        statusOf={statusOf}
        onPause={pause}
        onResume={resume}
      />

      <FormField
        label="Tautan Bukti Pendukung"
        error={errors.evidenceLink}
        helper="Opsional, misalnya tautan penyimpanan awan (diawali https://)."
      >
        <Input
          name="evidenceLink"
          type="url"
          inputMode="url"
          value={state.evidenceLink}
          maxLength={FIELD_LIMITS.answer}
          placeholder="https://"
          onChange={bindText(update, 'evidenceLink')}
        />
      </FormField>

      <InvolvedTable state={state} update={update} />

      {ctx.signedIn ? (
        <FormField label="Saluran Pengaduan" error={errors.channelId}>
          <SelectInput
            name="channelId"
            value={state.channelId}
            options={channels.data?.items ?? []}
            loading={channels.isLoading}
            placeholder="Pilih Saluran"
            onChange={(id) => update({ channelId: id || DEFAULT_CHANNEL_ID })}
          />
        </FormField>
      ) : (
        <CasePasswordFields state={state} errors={errors} update={update} />
      )}
    </Stack>
  );
}
