import {
  Badge,
  Box,
  Button,
  Flex,
  Heading,
  HStack,
  Link,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { COMMUNICATION_TYPES, statusBadgeColour, UI_MESSAGES, WHISTLEBLOWER_TYPES } from '@wbs/shared';
import type { ReactNode } from 'react';
import type { CaseDetail, CaseLog } from './detail.ts';
import { formatDateTime } from './detail.ts';
import { PROTECTION_QUESTION, QUESTIONS } from './questions.ts';

export function StatusBadge({ status }: { status: { name: string; order: number } | null }) {
  if (!status) return null;
  return (
    <Badge colorPalette={statusBadgeColour(status.order)} variant="subtle" size="md">
      {status.name}
    </Badge>
  );
}

/**
 * Case detail in View mode, shared by the tracker (Pantau Laporan) and the staff detail.
 * `masked` shows every log note as '**********' with 'Text disembunyikan demi keamanan'.
 */
export function CaseDetailView(props: {
  detail: CaseDetail;
  masked: boolean;
  /** Hidden for user type 6 (spec: the reporter name in the header). */
  showReporterName: boolean;
  onBack: () => void;
  actions?: ReactNode;
  onDownloadAttachment?: (attachment: { id: number; name: string }) => void;
  onDownloadLogAttachment?: (log: CaseLog) => void;
}) {
  const { detail } = props;
  return (
    <Stack gap="6">
      <Flex
        justify="space-between"
        align={{ base: 'flex-start', md: 'center' }}
        gap="4"
        direction={{ base: 'column', md: 'row' }}
      >
        <Stack gap="1">
          <Heading as="h1" size="2xl">
            Detail Laporan {detail.number}
          </Heading>
          <HStack gap="3" wrap="wrap">
            <Text color="fg.muted">Dibuat {formatDateTime(detail.createdAt)}</Text>
            <StatusBadge status={detail.status} />
          </HStack>
          {props.showReporterName && !detail.reporter.anonymous && detail.reporter.name && (
            <Text color="fg.muted">Pelapor: {detail.reporter.name}</Text>
          )}
        </Stack>
        <HStack gap="2" wrap="wrap">
          {props.actions}
          <Button variant="outline" onClick={props.onBack}>
            Kembali
          </Button>
        </HStack>
      </Flex>

      <Tabs.Root defaultValue="info" variant="line" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="info">Informasi Laporan</Tabs.Trigger>
          <Tabs.Trigger value="logs">Catatan Aktivitas</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="info">
          <CaseInformation detail={detail} onDownloadAttachment={props.onDownloadAttachment} />
        </Tabs.Content>
        <Tabs.Content value="logs">
          <CaseLogTable logs={detail.logs} masked={props.masked} onDownload={props.onDownloadLogAttachment} />
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="section" bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '4', md: '6' }}>
      <Heading as="h2" size="md" mb="4" color="brand.fg">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

function Item({ label, value, wide }: { label: string; value: ReactNode; wide?: boolean }) {
  return (
    <Box gridColumn={wide ? { md: 'span 2' } : undefined}>
      <Text as="dt" fontSize="sm" color="fg.muted" fontWeight="medium">
        {label}
      </Text>
      <Text as="dd" whiteSpace="pre-wrap" wordBreak="break-word">
        {value === '' || value === null || value === undefined ? '-' : value}
      </Text>
    </Box>
  );
}

function CaseInformation({
  detail,
  onDownloadAttachment,
}: {
  detail: CaseDetail;
  onDownloadAttachment?: (attachment: { id: number; name: string }) => void;
}) {
  const r = detail.reporter;
  const typeName = WHISTLEBLOWER_TYPES.find((t) => t.id === r.type)?.name ?? '';
  const communication = detail.communication.types
    .map((id) => COMMUNICATION_TYPES.find((c) => c.id === id)?.name)
    .filter(Boolean)
    .join(', ');
  return (
    <Stack gap="4" pt="2">
      <Section title="Identitas Pelapor">
        <SimpleGrid as="dl" columns={{ base: 1, md: 2 }} gap="4">
          <Item label="Tanpa Identitas" value={r.anonymous ? 'Ya' : 'Tidak'} />
          <Item label="Identitas Pelapor" value={typeName} />
          {!r.anonymous && (
            <>
              <Item label="Nama" value={r.name} />
              <Item label="Departemen" value={r.department} />
              <Item label="Alamat" value={r.address} wide />
              <Item label="Provinsi" value={r.provinceName} />
              <Item label="Kota" value={r.cityName} />
              <Item label="Kecamatan" value={r.districtName} />
            </>
          )}
          <Item label="Email" value={r.email} />
          <Item label="Nomor Telepon" value={r.phone} />
        </SimpleGrid>
      </Section>
      <Section title="Komunikasi">
        <SimpleGrid as="dl" columns={{ base: 1, md: 2 }} gap="4">
          <Item label="Cara Komunikasi" value={communication} />
          <Item label="Waktu Komunikasi" value={detail.communication.time} />
        </SimpleGrid>
      </Section>
      <Section title="Laporan Dugaan Pelanggaran">
        <SimpleGrid as="dl" columns={1} gap="4">
          {detail.companyName && <Item label="Perusahaan" value={detail.companyName} />}
          <Item label="Kategori Pengaduan" value={detail.categoryName ?? ''} />
          {QUESTIONS.map((q, index) => (
            <Item key={q.field} label={`${index + 1}. ${q.text}`} value={detail.report[q.field]} />
          ))}
          <Item
            label={`15. ${PROTECTION_QUESTION}`}
            value={
              detail.report.needsProtection === null
                ? ''
                : `${detail.report.needsProtection ? 'Ya' : 'Tidak'}${detail.report.protectionReason ? ` — ${detail.report.protectionReason}` : ''}`
            }
          />
        </SimpleGrid>
      </Section>
      <Section title="Bukti Pendukung">
        <SimpleGrid as="dl" columns={1} gap="4">
          <Item
            label="Lampiran"
            value={
              detail.attachments.length === 0 ? (
                ''
              ) : (
                <Stack as="span" gap="1" mt="1">
                  {detail.attachments.map((a) => (
                    <HStack as="span" key={`${a.id}-${a.name}`} gap="2">
                      <span>{a.name}</span>
                      {onDownloadAttachment && (
                        <Button
                          size="xs"
                          variant="outline"
                          aria-label={`Unduh ${a.name}`}
                          onClick={() => onDownloadAttachment(a)}
                        >
                          Unduh
                        </Button>
                      )}
                    </HStack>
                  ))}
                </Stack>
              )
            }
          />
          <Item
            label="Tautan Bukti Pendukung"
            value={
              detail.evidenceLink && /^https?:\/\//i.test(detail.evidenceLink) ? (
                <Link href={detail.evidenceLink} target="_blank" rel="noopener noreferrer" color="brand.fg">
                  {detail.evidenceLink}
                </Link>
              ) : (
                detail.evidenceLink
              )
            }
          />
        </SimpleGrid>
        {detail.allegedlyInvolved.length > 0 && (
          <Box mt="4" maxH="200px" overflowY="auto" borderWidth="1px" rounded="md">
            <Table.Root size="sm" stickyHeader aria-label="Pihak yang Diduga Terlibat">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Nama</Table.ColumnHeader>
                  <Table.ColumnHeader>Posisi</Table.ColumnHeader>
                  <Table.ColumnHeader>Keterangan</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {detail.allegedlyInvolved.map((p, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: read-only rows without ids
                  <Table.Row key={index}>
                    <Table.Cell>{p.name}</Table.Cell>
                    <Table.Cell>{p.position}</Table.Cell>
                    <Table.Cell>{p.description || '-'}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
      </Section>
    </Stack>
  );
}

function CaseLogTable(props: { logs: CaseLog[]; masked: boolean; onDownload?: (log: CaseLog) => void }) {
  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto" mt="2">
      <Table.Root size="sm" aria-label="Catatan Aktivitas">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Tanggal</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Catatan</Table.ColumnHeader>
            {!props.masked && <Table.ColumnHeader>Oleh</Table.ColumnHeader>}
            {props.onDownload && <Table.ColumnHeader>Lampiran</Table.ColumnHeader>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {props.logs.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={5} textAlign="center" color="fg.muted">
                {UI_MESSAGES.notFoundData}
              </Table.Cell>
            </Table.Row>
          )}
          {props.logs.map((log, index) => {
            const hidden = props.masked || log.noteHidden;
            return (
              <Table.Row key={log.id || index}>
                <Table.Cell whiteSpace="nowrap">{formatDateTime(log.createdAt)}</Table.Cell>
                <Table.Cell>{log.statusName ?? '-'}</Table.Cell>
                <Table.Cell>
                  {hidden ? (
                    <Stack gap="0">
                      <Text>{UI_MESSAGES.maskedNote}</Text>
                      <Text fontSize="xs" color="fg.muted">
                        {UI_MESSAGES.maskedNoteHint}
                      </Text>
                    </Stack>
                  ) : (
                    <Text whiteSpace="pre-wrap">{log.message}</Text>
                  )}
                </Table.Cell>
                {!props.masked && <Table.Cell>{log.createdBy ?? '-'}</Table.Cell>}
                {props.onDownload && (
                  <Table.Cell>
                    {log.attachmentName ? (
                      <Button
                        size="xs"
                        variant="outline"
                        aria-label={`Unduh Lampiran ${log.attachmentName}`}
                        onClick={() => props.onDownload?.(log)}
                      >
                        Unduh Lampiran
                      </Button>
                    ) : (
                      '-'
                    )}
                  </Table.Cell>
                )}
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
