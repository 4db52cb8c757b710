import { Box, Input, SimpleGrid, Stack, Switch, Text } from '@chakra-ui/react';
import { FIELD_LIMITS } from '@wbs/shared';
import { read } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { FormField } from '../../ui/FormField.tsx';
import { SelectInput } from '../../ui/SelectInput.tsx';
import { ReporterTypeField } from './ReporterTypeField.tsx';
import { bindText, type StepProps } from './types.ts';

const SINGLE = FIELD_LIMITS.singleLineInput;

/** Step 1 of 4, Identitas pelapor: anonymous or identified, the reporter type, the contact details. */
export function StepIdentity({ state, errors, update }: StepProps) {
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
      {state.anonymous && <ContactUseNotice />}

      <ReporterTypeField value={state.reporterType} error={errors.reporterType} update={update} />

      {!state.anonymous && <IdentifiedFields state={state} errors={errors} update={update} />}

      <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
        <FormField label="Email" error={errors.email} required>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            value={state.email}
            maxLength={SINGLE}
            onChange={bindText(update, 'email')}
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
            onChange={bindText(update, 'phone')}
          />
        </FormField>
      </SimpleGrid>
    </Stack>
  );
}

/**
 * What the contact details of an anonymous report are for and who sees them (docs/product/privacy.md#contact-reveal:
 * handlers see them masked; one allowed to write activity logs may reveal them with a recorded reason).
 */
function ContactUseNotice() {
  return (
    <Box bg="brand.subtle" rounded="md" p="4" fontSize="sm" data-testid="contact-use-notice">
      <Text fontWeight="semibold" mb="1">
        Untuk apa email dan nomor telepon Anda?
      </Text>
      <Text>
        Hanya untuk menghubungi Anda tentang laporan ini bila petugas memerlukan keterangan tambahan. Dalam
        laporan tanpa identitas, petugas penanganan hanya melihatnya tersamar (misalnya r***@g***.com dan +62
        8** **** *789). Petugas yang berwenang mencatat aktivitas laporan dapat membukanya hanya dengan
        menuliskan alasan, dan setiap pembukaan dicatat dalam jejak audit. Terlapor dan pihak lain tidak dapat
        melihatnya.
      </Text>
    </Box>
  );
}

/** Name, department, address and location: only in an identified report. */
function IdentifiedFields({ state, errors, update }: Pick<StepProps, 'state' | 'errors' | 'update'>) {
  const provinces = useApi(read('/api/v1/regions/provinces'));
  const cities = useApi(
    !state.anonymous && state.provinceId > 0
      ? read('/api/v1/regions/provinces/{provinceId}/cities', {
          params: { path: { provinceId: String(state.provinceId) } },
        })
      : null,
  );
  const districts = useApi(
    !state.anonymous && state.cityId > 0
      ? read('/api/v1/regions/cities/{cityId}/districts', {
          params: { path: { cityId: String(state.cityId) } },
        })
      : null,
  );
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
      <FormField label="Nama" error={errors.name} required>
        <Input
          name="name"
          autoComplete="name"
          value={state.name}
          maxLength={SINGLE}
          onChange={bindText(update, 'name')}
        />
      </FormField>
      <FormField label="Departemen" error={errors.department}>
        <Input
          name="department"
          value={state.department}
          maxLength={SINGLE}
          onChange={bindText(update, 'department')}
        />
      </FormField>
      <Box gridColumn={{ md: 'span 2' }}>
        <FormField label="Alamat" error={errors.address} required>
          <Input
            name="address"
            autoComplete="street-address"
            value={state.address}
            maxLength={SINGLE}
            onChange={bindText(update, 'address')}
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
  );
}
