import { Box, Button, Dialog, HStack, Portal, Stack, Text } from '@chakra-ui/react';
import { format, isoToDisplay, REPORTER_NOTICE_MESSAGES, UI_MESSAGES } from '@wbs/shared';
import type { Receipt } from '@wbs/shared/api/case-create';
import { useState } from 'react';
import { ReporterNoticeForm } from '../notices/ReporterNoticeForm.tsx';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { retryImport } from '../ui/lazyWithRetry.tsx';
import { notify } from '../ui/toaster.tsx';
import { copyText } from './copyText.ts';
import { formatWib } from './receiptTime.ts';
import { CASE_NUMBER_REMINDER } from './reminder.ts';

export const PDF_FAILED =
  'Bukti pengaduan (PDF) gagal dibuat. Nomor Pengaduan Anda tetap tersimpan di sini: salin atau catat, lalu coba lagi.';

/** Pengaduan Berhasil Dibuat: the complaint number (click to copy), a reminder, Tutup and the PDF. */
export function SuccessDialog(props: {
  caseNumber: string;
  createdAt: Date;
  /** The gateway's signed receipt (PDF: QR code and text). */
  receipt?: Receipt;
  /** YYYY-MM-DD (WIB): the acknowledgement deadline the gateway promised at filing. */
  respondBy?: string;
  guest: boolean;
  /**
   * The guest's number and case password, held in memory until Tutup: the e-mail notice form proves
   * the case with them, as Pantau Laporan does.
   */
  tracker?: { caseNumber: string; password: string };
  onClose: () => void;
}) {
  const [downloading, setDownloading] = useState(false);
  const [pdfFailed, setPdfFailed] = useState(false);
  const copy = async () => {
    if (await copyText(props.caseNumber)) notify.success(UI_MESSAGES.caseNumberCopied);
  };
  // The number is shown once: whatever happens to the PDF (its code or fonts cannot load, the
  // connection dropped, a deployment meanwhile) the dialog and the number stay, with a retry and a
  // plain-text receipt made on the device.
  const download = async () => {
    setDownloading(true);
    try {
      const { downloadCaseNumberPdf } = await retryImport(() => import('./pdf.ts'));
      await downloadCaseNumberPdf(props.caseNumber, props.createdAt, props.receipt);
      setPdfFailed(false);
    } catch {
      setPdfFailed(true);
      notify.error(PDF_FAILED);
    } finally {
      setDownloading(false);
    }
  };
  const downloadText = () => {
    const text = `Whistleblowing System\nBukti Pengaduan\n\nNomor Pengaduan: ${props.caseNumber}\nTanggal dibuat: ${formatWib(props.createdAt)}\n${props.respondBy ? `${format(UI_MESSAGES.replyPromise, { date: isoToDisplay(props.respondBy) })}\n` : ''}\n${CASE_NUMBER_REMINDER}\n${props.receipt ? `\nKode tanda terima:\n${props.receipt.code}\n` : ''}`;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${props.caseNumber}.txt`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Dialog.Root
      open
      role="alertdialog"
      placement="center"
      closeOnInteractOutside={false}
      closeOnEscape={false}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Pengaduan Berhasil Dibuat</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4" align="center" textAlign="center">
                <Text>Nomor Pengaduan Anda:</Text>
                <Button
                  variant="subtle"
                  size="xl"
                  fontSize="2xl"
                  fontWeight="bold"
                  letterSpacing="wide"
                  onClick={copy}
                  title="Klik untuk menyalin"
                  aria-label={`Nomor Pengaduan ${props.caseNumber}, klik untuk menyalin`}
                  data-testid="case-number"
                >
                  {props.caseNumber}
                </Button>
                <Text fontSize="sm" color="fg.muted">
                  Klik nomor untuk menyalin.
                </Text>
                {props.respondBy && (
                  <Text fontWeight="medium" data-testid="reply-promise">
                    {format(UI_MESSAGES.replyPromise, { date: isoToDisplay(props.respondBy) })}
                  </Text>
                )}
                {pdfFailed && (
                  <Stack role="alert" bg="bg.error" p="3" rounded="md" fontSize="sm" gap="2" w="full">
                    <Text>{PDF_FAILED}</Text>
                    <HStack justify="center" gap="2" wrap="wrap">
                      <Button size="xs" onClick={download} loading={downloading}>
                        Coba lagi
                      </Button>
                      <Button size="xs" variant="outline" onClick={downloadText}>
                        Unduh sebagai teks
                      </Button>
                    </HStack>
                  </Stack>
                )}
                <Text bg="orange.subtle" color="orange.fg" p="3" rounded="md" fontSize="sm">
                  {props.guest
                    ? CASE_NUMBER_REMINDER
                    : 'Simpan Nomor Pengaduan ini dengan baik untuk menelusuri laporan Anda.'}
                </Text>
                {props.guest && props.tracker && (
                  <Box w="full" borderTopWidth="1px" pt="4" textAlign="start">
                    <Text fontWeight="semibold" mb="2">
                      {REPORTER_NOTICE_MESSAGES.title}
                    </Text>
                    <ReporterNoticeForm access={{ kind: 'tracker', ...props.tracker }} />
                  </Box>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <Button variant="outline" onClick={props.onClose}>
                Tutup
              </Button>
              <Button onClick={download} loading={downloading}>
                Unduh Nomor Pengaduan
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * The success dialog behind its own boundary: should the dialog itself fail, the number still
 * shows, plainly, with Tutup.
 */
export function SafeSuccessDialog(props: Parameters<typeof SuccessDialog>[0]) {
  return (
    <ErrorBoundary
      fallback={() => (
        <Box
          role="alertdialog"
          aria-label="Pengaduan Berhasil Dibuat"
          position="fixed"
          inset="0"
          zIndex="modal"
          bg="bg.panel"
          p="6"
        >
          <Stack gap="4" align="center" textAlign="center" maxW="md" mx="auto" mt="20">
            <Text fontWeight="bold" fontSize="xl">
              Pengaduan Berhasil Dibuat
            </Text>
            <Text>Nomor Pengaduan Anda:</Text>
            <Text fontSize="2xl" fontWeight="bold" data-testid="case-number" userSelect="all">
              {props.caseNumber}
            </Text>
            <Text fontSize="sm">{CASE_NUMBER_REMINDER}</Text>
            <Button variant="outline" onClick={props.onClose}>
              Tutup
            </Button>
          </Stack>
        </Box>
      )}
    >
      <SuccessDialog {...props} />
    </ErrorBoundary>
  );
}
