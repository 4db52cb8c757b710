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
import type { ContactRevealReply } from '@wbs/shared/api/contact-reveal';
import type { Message } from '@wbs/shared/api/messages';
import { type ReactNode, useState } from 'react';
import { ReporterNoticeSection } from '../notices/ReporterNoticeForm.tsx';
import { ContactRevealDialog } from './ContactRevealDialog.tsx';
import type { CaseDetail, CaseLog } from './detail.ts';
import { formatDateTime } from './detail.ts';
import { HandlingDeadlines, ReplyPromise } from './HandlingClock.tsx';
import { AddEvidence } from './messages/AddEvidence.tsx';
import type { CaseAccess, EvidenceReply } from './messages/access.ts';
import { IdentityAccessSection } from './messages/IdentityAccessSection.tsx';
import { MessagesPanel } from './messages/MessagesPanel.tsx';
import { MESSAGE_TEXTS } from './messages/texts.ts';
import { PROTECTION_QUESTION, QUESTIONS } from './questions.ts';

/** `wrap`: a long name may take two lines (the case list must fit 1024 px). */
export function StatusBadge({
  status,
  wrap = false,
}: {
  status: { name: string; order: number } | null;
  wrap?: boolean;
}) {
  if (!status) return null;
  return (
    <Badge
      colorPalette={statusBadgeColour(status.order)}
      variant="subtle"
      size="md"
      whiteSpace={wrap ? 'normal' : undefined}
    >
      {status.name}
    </Badge>
  );
}

/** What the case view offers beyond the legacy's detail (the gateway decides again on every call). */
export type CaseTalk = {
  access: CaseAccess;
  /** The reporter (tracker or pelapor) sees handlers as "Tim Penanganan WBS"; staff see names. */
  audience: 'reporter' | 'staff';
  canWrite: boolean;
  /** Tambah Bukti (reporter only): called with the gateway's reply once files were added. */
  onEvidenceAdded?: (reply: EvidenceReply) => void;
  /** Pesan as the page already holds it, and where it hears of the conversation shown. */
  initialMessages?: Message[] | null;
  onMessages?: (messages: Message[]) => void;
};

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
  /** The reader may reveal masked contact details with a reason (policy `case-logs:create`). */
  canRevealContact?: boolean;
  /** Pesan, identity-access history and Tambah Bukti: absent for readers without them (type 1). */
  talk?: CaseTalk;
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
          {props.talk?.audience === 'reporter' ? (
            <ReplyPromise handling={detail.handling} />
          ) : (
            <HandlingDeadlines handling={detail.handling} />
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
          {props.talk && <Tabs.Trigger value="messages">{MESSAGE_TEXTS.tab}</Tabs.Trigger>}
        </Tabs.List>
        <Tabs.Content value="info">
          <CaseInformation
            detail={detail}
            onDownloadAttachment={props.onDownloadAttachment}
            canRevealContact={props.canRevealContact ?? false}
          />
          {props.talk?.audience === 'reporter' && (
            <Stack gap="4" mt="4">
              {props.talk.onEvidenceAdded && (
                <AddEvidence
                  access={props.talk.access}
                  existingNames={detail.attachments.map((a) => a.name)}
                  onAdded={props.talk.onEvidenceAdded}
                />
              )}
              <IdentityAccessSection access={props.talk.access} />
              <ReporterNoticeSection access={props.talk.access} />
            </Stack>
          )}
        </Tabs.Content>
        <Tabs.Content value="logs">
          <CaseLogTable logs={detail.logs} masked={props.masked} onDownload={props.onDownloadLogAttachment} />
        </Tabs.Content>
        {props.talk && (
          <Tabs.Content value="messages">
            <MessagesPanel
              access={props.talk.access}
              audience={props.talk.audience}
              canWrite={props.talk.canWrite}
              initialMessages={props.talk.initialMessages}
              onMessages={props.talk.onMessages}
            />
          </Tabs.Content>
        )}
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

/** A value the gateway withheld or masked, with the reason under it. */
function Withheld({ value, hint }: { value: string | null; hint: string }) {
  return (
    <Stack as="span" gap="0">
      <span>{value ?? '-'}</span>
      <Text as="span" fontSize="xs" color="fg.muted">
        {hint}
      </Text>
    </Stack>
  );
}

function CaseInformation({
  detail,
  onDownloadAttachment,
  canRevealContact,
}: {
  detail: CaseDetail;
  onDownloadAttachment?: (attachment: { id: number; name: string }) => void;
  canRevealContact: boolean;
}) {
  const r = detail.reporter;
  // Revealed values live only in this view's memory, tied to the case they were revealed for.
  const [revealed, setRevealed] = useState<{ caseId: number; contact: ContactRevealReply } | null>(null);
  const [revealOpen, setRevealOpen] = useState(false);
  const contact = revealed?.caseId === detail.id ? revealed.contact : null;
  const hidden = (value: string | null) =>
    r.identityHidden ? <Withheld value={null} hint={UI_MESSAGES.identityHiddenHint} /> : value;
  const masked = (value: string | null, clear: string | null | undefined) => {
    if (contact) return clear;
    if (!r.contactMasked) return value;
    return <Withheld value={value} hint={UI_MESSAGES.contactMaskedHint} />;
  };
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
              <Item label="Nama" value={hidden(r.name)} />
              <Item label="Departemen" value={hidden(r.department)} />
              <Item label="Alamat" value={hidden(r.address)} wide />
              <Item label="Provinsi" value={hidden(r.provinceName)} />
              <Item label="Kota" value={hidden(r.cityName)} />
              <Item label="Kecamatan" value={hidden(r.districtName)} />
            </>
          )}
          <Item label="Email" value={masked(r.email, contact?.email)} />
          <Item label="Nomor Telepon" value={masked(r.phone, contact?.phone)} />
        </SimpleGrid>
        {r.contactMasked && canRevealContact && !contact && (
          <Button size="sm" variant="outline" mt="4" onClick={() => setRevealOpen(true)}>
            {UI_MESSAGES.revealContact}
          </Button>
        )}
        {revealOpen && (
          <ContactRevealDialog
            caseId={detail.id}
            onClose={() => setRevealOpen(false)}
            onRevealed={(revealedContact) => {
              setRevealed({ caseId: detail.id, contact: revealedContact });
              setRevealOpen(false);
            }}
          />
        )}
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
