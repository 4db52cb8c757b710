import {
  Box,
  Button,
  Checkbox,
  Fieldset,
  HStack,
  IconButton,
  Input,
  RadioGroup,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { COMMUNICATION_TYPES, FIELD_LIMITS, WHISTLEBLOWER_TYPES } from '@wbs/shared';
import { type ChangeEvent, useId } from 'react';
import useSWR from 'swr';
import type { CaseCategory, Items, Option } from '../api/types.ts';
import { FormField } from '../ui/FormField.tsx';
import { PasswordInput } from '../ui/PasswordInput.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { ACCEPT_ATTRIBUTE, addAttachments, checkEvidence, formatBytes } from './attachments.ts';
import type { StepProps } from './CaseWizardPage.tsx';
import { PROTECTION_QUESTION, PROTECTION_REASON_LABEL, QUESTIONS } from './questions.ts';
import type { InvolvedRow, WizardState } from './wizardModel.ts';

const SINGLE = FIELD_LIMITS.singleLineInput;
const LONG = FIELD_LIMITS.longText;

type TextKey = {
  [K in keyof WizardState]: WizardState[K] extends string ? K : never;
}[keyof WizardState];

const text =
  (update: StepProps['update'], key: TextKey) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    update({ [key]: e.target.value } as Partial<WizardState>);

// Step 0 ------------------------------------------------------------------------------------------

export function StepIdentity({ state, errors, update }: StepProps) {
  const provinces = useSWR<Items<Option>>('/regions/provinces');
  const cities = useSWR<Items<Option>>(
    !state.anonymous && state.provinceId > 0 ? `/regions/provinces/${state.provinceId}/cities` : null,
  );
  const districts = useSWR<Items<Option>>(
    !state.anonymous && state.cityId > 0 ? `/regions/cities/${state.cityId}/districts` : null,
  );
  return (
    <Stack gap="5">
      <Switch.Root
        checked={state.anonymous}
        onCheckedChange={(e) => update({ anonymous: e.checked })}
        colorPalette="brand"
      >
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label>Tanpa Identitas</Switch.Label>
      </Switch.Root>
      <Text fontSize="sm" color="fg.muted" mt="-3">
        {state.anonymous
          ? 'Nama, alamat, dan lokasi Anda tidak akan dikirim. Cantumkan email dan nomor telepon agar kami dapat menghubungi Anda bila diperlukan.'
          : 'Identitas Anda dijaga kerahasiaannya dan tidak diungkapkan kepada terlapor.'}
      </Text>

      <Fieldset.Root invalid={Boolean(errors.reporterType)}>
        <Fieldset.Legend>Identitas Pelapor</Fieldset.Legend>
        <RadioGroup.Root
          value={state.reporterType > 0 ? String(state.reporterType) : null}
          onValueChange={(e) => update({ reporterType: Number(e.value) || 0 })}
          name="reporterType"
        >
          <HStack gap="6">
            {WHISTLEBLOWER_TYPES.map((t) => (
              <RadioGroup.Item key={t.id} value={String(t.id)}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{t.name}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </HStack>
        </RadioGroup.Root>
        {errors.reporterType && <Fieldset.ErrorText>{errors.reporterType}</Fieldset.ErrorText>}
      </Fieldset.Root>

      {!state.anonymous && (
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          <FormField label="Nama" error={errors.name} required>
            <Input
              name="name"
              autoComplete="name"
              value={state.name}
              maxLength={SINGLE}
              onChange={text(update, 'name')}
            />
          </FormField>
          <FormField label="Departemen" error={errors.department}>
            <Input
              name="department"
              value={state.department}
              maxLength={SINGLE}
              onChange={text(update, 'department')}
            />
          </FormField>
          <Box gridColumn={{ md: 'span 2' }}>
            <FormField label="Alamat" error={errors.address} required>
              <Input
                name="address"
                autoComplete="street-address"
                value={state.address}
                maxLength={SINGLE}
                onChange={text(update, 'address')}
              />
            </FormField>
          </Box>
          <FormField label="Provinsi" error={errors.provinceId} required>
            <SelectInput
              name="provinceId"
              value={state.provinceId}
              options={provinces.data?.items ?? []}
              loading={provinces.isLoading}
              placeholder="Pilih Provinsi"
              onChange={(id) => update({ provinceId: id, cityId: 0, districtId: 0 })}
            />
          </FormField>
          <FormField label="Kota" error={errors.cityId} required>
            <SelectInput
              name="cityId"
              value={state.cityId}
              options={cities.data?.items ?? []}
              loading={cities.isLoading}
              disabled={state.provinceId === 0}
              placeholder="Pilih Kota/Kabupaten"
              onChange={(id) => update({ cityId: id, districtId: 0 })}
            />
          </FormField>
          <FormField label="Kecamatan" error={errors.districtId} required>
            <SelectInput
              name="districtId"
              value={state.districtId}
              options={districts.data?.items ?? []}
              loading={districts.isLoading}
              disabled={state.cityId === 0}
              placeholder="Pilih Kecamatan"
              onChange={(id) => update({ districtId: id })}
            />
          </FormField>
        </SimpleGrid>
      )}

      <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
        <FormField label="Email" error={errors.email} required>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            value={state.email}
            maxLength={SINGLE}
            onChange={text(update, 'email')}
          />
        </FormField>
        <FormField label="Nomor Telepon" error={errors.phone} required>
          <Input
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            value={state.phone}
            maxLength={FIELD_LIMITS.phoneMax}
            onChange={text(update, 'phone')}
          />
        </FormField>
      </SimpleGrid>
    </Stack>
  );
}

// Step 1 ------------------------------------------------------------------------------------------

export function StepCommunication({ state, errors, update, ctx }: StepProps) {
  const toggle = (id: number, on: boolean) => {
    const set = new Set(state.communicationTypes);
    if (on) set.add(id);
    else set.delete(id);
    update({ communicationTypes: [...set].sort((a, b) => a - b) });
  };
  return (
    <Stack gap="6">
      <Fieldset.Root invalid={Boolean(errors.communicationTypes)}>
        <Fieldset.Legend>Cara Komunikasi</Fieldset.Legend>
        <Fieldset.HelperText>
          Pilih satu atau lebih cara yang dapat kami gunakan untuk menghubungi Anda.
        </Fieldset.HelperText>
        <Stack gap="3" mt="2">
          {COMMUNICATION_TYPES.map((c) => (
            <Checkbox.Root
              key={c.id}
              checked={state.communicationTypes.includes(c.id)}
              onCheckedChange={(e) => toggle(c.id, e.checked === true)}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{c.name}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Stack>
        {errors.communicationTypes && <Fieldset.ErrorText>{errors.communicationTypes}</Fieldset.ErrorText>}
      </Fieldset.Root>
      <FormField
        label={ctx.signedIn ? 'Waktu Komunikasi (opsional)' : 'Waktu Komunikasi'}
        error={errors.communicationTime}
        required={!ctx.signedIn}
        helper="Contoh: hari kerja pukul 09.00–17.00"
      >
        <Input
          name="communicationTime"
          value={state.communicationTime}
          maxLength={SINGLE}
          onChange={text(update, 'communicationTime')}
        />
      </FormField>
    </Stack>
  );
}

// Step 2 ------------------------------------------------------------------------------------------

export function StepReport({ state, errors, update, ctx }: StepProps) {
  const companies = useSWR<Items<Option>>(ctx.partnerUser ? '/companies/options' : null);
  const categoryKey = ctx.partnerUser
    ? state.companyId > 0
      ? `/case-categories?companyId=${state.companyId}`
      : null
    : '/case-categories';
  const categories = useSWR<Items<CaseCategory>>(categoryKey);
  const categoryOptions = (categories.data?.items ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    group: c.groupName,
  }));
  return (
    <Stack gap="6">
      <SimpleGrid columns={{ base: 1, md: ctx.partnerUser ? 2 : 1 }} gap="5">
        {ctx.partnerUser && (
          <FormField label="Perusahaan" error={errors.companyId} required>
            <SelectInput
              name="companyId"
              value={state.companyId}
              options={companies.data?.items ?? []}
              loading={companies.isLoading}
              placeholder="Pilih Perusahaan"
              onChange={(id) => update({ companyId: id, categoryId: 0 })}
            />
          </FormField>
        )}
        <FormField label="Kategori Pengaduan" error={errors.categoryId} required>
          <SelectInput
            name="categoryId"
            value={state.categoryId}
            options={categoryOptions}
            loading={categories.isLoading}
            disabled={categoryKey === null}
            placeholder="Pilih Kategori"
            onChange={(id) => update({ categoryId: id })}
          />
        </FormField>
      </SimpleGrid>
      <Stack as="ol" gap="5" listStyleType="none" ps="0">
        {QUESTIONS.map((q, index) => (
          <Box as="li" key={q.field}>
            <FormField label={`${index + 1}. ${q.text}`} error={errors[q.field]} required={q.required}>
              {q.kind === 'long' ? (
                <Textarea
                  name={q.field}
                  value={state[q.field]}
                  maxLength={LONG}
                  rows={3}
                  autoresize
                  onChange={text(update, q.field)}
                />
              ) : (
                <Input
                  name={q.field}
                  value={state[q.field]}
                  maxLength={SINGLE}
                  placeholder={q.placeholder}
                  onChange={text(update, q.field)}
                />
              )}
            </FormField>
            {q.kind === 'long' && (
              <Text fontSize="xs" color="fg.muted" textAlign="end" mt="1" aria-hidden="true">
                {state[q.field].length}/{LONG}
              </Text>
            )}
          </Box>
        ))}
        <Box as="li">
          <Fieldset.Root>
            <Fieldset.Legend>{`15. ${PROTECTION_QUESTION}`}</Fieldset.Legend>
            <RadioGroup.Root
              mt="2"
              name="needsProtection"
              value={state.needsProtection ? 'ya' : 'tidak'}
              onValueChange={(e) => update({ needsProtection: e.value === 'ya' })}
            >
              <HStack gap="6">
                <RadioGroup.Item value="ya">
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>Ya</RadioGroup.ItemText>
                </RadioGroup.Item>
                <RadioGroup.Item value="tidak">
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>Tidak</RadioGroup.ItemText>
                </RadioGroup.Item>
              </HStack>
            </RadioGroup.Root>
          </Fieldset.Root>
          <Box mt="3">
            <FormField label={PROTECTION_REASON_LABEL} error={errors.protectionReason}>
              <Textarea
                name="protectionReason"
                value={state.protectionReason}
                maxLength={LONG}
                rows={2}
                autoresize
                onChange={text(update, 'protectionReason')}
              />
            </FormField>
          </Box>
        </Box>
      </Stack>
    </Stack>
  );
}

// Step 3 ------------------------------------------------------------------------------------------

let rowCounter = 0;
const newRow = (): InvolvedRow => ({ key: `row-${++rowCounter}`, name: '', position: '', description: '' });

export function StepEvidence({ state, errors, update, ctx }: StepProps) {
  const channels = useSWR<Items<Option>>(ctx.signedIn ? '/channels' : null);
  const evidenceHelpId = useId();

  const chooseEvidence = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = checkEvidence(file, state.attachments);
    if (problem) {
      notify.warning(problem);
      return;
    }
    update({ evidence: file });
  };

  const chooseAttachments = (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = '';
    const result = addAttachments(state.evidence, state.attachments, files);
    if (result.messages.length > 0) notify.warning(result.messages);
    update({ attachments: result.attachments });
  };

  const setRow = (key: string, patch: Partial<InvolvedRow>) =>
    update({
      allegedlyInvolved: state.allegedlyInvolved.map((r) => (r.key === key ? { ...r, ...patch } : r)),
    });

  return (
    <Stack gap="6">
      <FormField
        label="Bukti Pendukung"
        error={errors.evidence}
        required
        helper="Maksimal 10 MB. Jenis file: pdf, doc, docx, xls, xlsx, ppt, pptx, zip, rar, png, jpg, jpeg, gif, mp3, mp4, mov, avi, 3gp."
      >
        <Input
          type="file"
          name="evidence"
          accept={ACCEPT_ATTRIBUTE}
          onChange={chooseEvidence}
          p="1.5"
          h="auto"
        />
      </FormField>
      {state.evidence && (
        <FileRow
          name={state.evidence.name}
          size={state.evidence.size}
          onRemove={() => update({ evidence: null })}
          id={evidenceHelpId}
        />
      )}

      <Stack gap="2">
        <FormField
          label="Lampiran Lainnya"
          helper="Opsional. Total lampiran termasuk Bukti Pendukung paling banyak 5 file."
        >
          <Input
            type="file"
            name="attachments"
            multiple
            accept={ACCEPT_ATTRIBUTE}
            onChange={chooseAttachments}
            p="1.5"
            h="auto"
          />
        </FormField>
        {state.attachments.map((file) => (
          <FileRow
            key={file.name}
            name={file.name}
            size={file.size}
            onRemove={() => update({ attachments: state.attachments.filter((f) => f !== file) })}
          />
        ))}
      </Stack>

      <FormField
        label="Tautan Bukti Pendukung"
        error={errors.evidenceLink}
        helper="Opsional, misalnya tautan penyimpanan awan."
      >
        <Input
          name="evidenceLink"
          type="url"
          value={state.evidenceLink}
          maxLength={FIELD_LIMITS.answer}
          placeholder="https://"
          onChange={text(update, 'evidenceLink')}
        />
      </FormField>

      <Stack gap="2">
        <HStack justify="space-between" wrap="wrap">
          <Text fontWeight="medium" id="involved-title">
            Pihak yang Diduga Terlibat
          </Text>
          <Button
            size="sm"
            variant="outline"
            type="button"
            onClick={() => update({ allegedlyInvolved: [...state.allegedlyInvolved, newRow()] })}
          >
            Tambah Pihak Terkait
          </Button>
        </HStack>
        <Box maxH="200px" overflowY="auto" borderWidth="1px" rounded="md">
          <Table.Root size="sm" aria-labelledby="involved-title" stickyHeader>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader w="10">No</Table.ColumnHeader>
                <Table.ColumnHeader>Nama</Table.ColumnHeader>
                <Table.ColumnHeader>Posisi</Table.ColumnHeader>
                <Table.ColumnHeader>Keterangan (area / unit bisnis)</Table.ColumnHeader>
                <Table.ColumnHeader w="10">
                  <Box as="span" srOnly>
                    Aksi
                  </Box>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {state.allegedlyInvolved.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={5} color="fg.muted" textAlign="center">
                    Belum ada pihak terkait.
                  </Table.Cell>
                </Table.Row>
              )}
              {state.allegedlyInvolved.map((row, index) => (
                <Table.Row key={row.key}>
                  <Table.Cell>{index + 1}</Table.Cell>
                  <Table.Cell minW="32">
                    <Input
                      size="sm"
                      aria-label={`Nama pihak terkait baris ${index + 1}`}
                      value={row.name}
                      maxLength={SINGLE}
                      onChange={(e) => setRow(row.key, { name: e.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell minW="32">
                    <Input
                      size="sm"
                      aria-label={`Posisi pihak terkait baris ${index + 1}`}
                      value={row.position}
                      maxLength={SINGLE}
                      onChange={(e) => setRow(row.key, { position: e.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell minW="40">
                    <Input
                      size="sm"
                      aria-label={`Keterangan pihak terkait baris ${index + 1}`}
                      value={row.description}
                      maxLength={SINGLE}
                      onChange={(e) => setRow(row.key, { description: e.target.value })}
                    />
                  </Table.Cell>
                  <Table.Cell>
                    <IconButton
                      size="xs"
                      variant="ghost"
                      colorPalette="red"
                      aria-label={`Hapus baris ${index + 1}`}
                      onClick={() =>
                        update({
                          allegedlyInvolved: state.allegedlyInvolved.filter((r) => r.key !== row.key),
                        })
                      }
                    >
                      <TrashIcon />
                    </IconButton>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      </Stack>

      {ctx.signedIn ? (
        <FormField label="Saluran Pengaduan" error={errors.channelId}>
          <SelectInput
            name="channelId"
            value={state.channelId}
            options={channels.data?.items ?? []}
            loading={channels.isLoading}
            placeholder="Pilih Saluran"
            onChange={(id) => update({ channelId: id || 1 })}
          />
        </FormField>
      ) : (
        <Stack gap="4" bg="brand.subtle" p="4" rounded="md">
          <Text fontSize="sm">
            Buat kata sandi untuk laporan ini. Kata sandi bersama Nomor Pengaduan diperlukan untuk memantau
            laporan melalui menu Pantau Laporan. Simpan dengan baik karena tidak dapat dipulihkan.
          </Text>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <FormField
              label="Kata sandi pengaduan"
              error={errors.password}
              required
              helper="Minimal 8 karakter."
            >
              <PasswordInput
                name="password"
                autoComplete="new-password"
                value={state.password}
                onChange={(e) => update({ password: e.target.value })}
              />
            </FormField>
            <FormField label="Konfirmasi kata sandi pengaduan" error={errors.confirmPassword} required>
              <PasswordInput
                name="confirmPassword"
                autoComplete="new-password"
                value={state.confirmPassword}
                onChange={(e) => update({ confirmPassword: e.target.value })}
              />
            </FormField>
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}

function FileRow(props: { name: string; size: number; onRemove: () => void; id?: string }) {
  return (
    <HStack id={props.id} justify="space-between" borderWidth="1px" rounded="md" px="3" py="2" bg="bg.subtle">
      <Text fontSize="sm" truncate>
        {props.name}{' '}
        <Box as="span" color="fg.muted">
          ({formatBytes(props.size)})
        </Box>
      </Text>
      <Button
        size="xs"
        variant="ghost"
        colorPalette="red"
        onClick={props.onRemove}
        aria-label={`Hapus ${props.name}`}
      >
        Hapus
      </Button>
    </HStack>
  );
}

function TrashIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6" />
    </svg>
  );
}
