import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared';
import { useState } from 'react';
import { notify } from '../ui/toaster.tsx';
import { CASE_NUMBER_REMINDER } from './reminder.ts';

async function copyText(value: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    // Clipboard API unavailable (non-secure context): fall back to a temporary selection.
    const area = document.createElement('textarea');
    area.value = value;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** Pengaduan Berhasil Dibuat: the complaint number (click to copy), a reminder, Tutup and the PDF. */
export function SuccessDialog(props: {
  caseNumber: string;
  createdAt: Date;
  guest: boolean;
  onClose: () => void;
}) {
  const [downloading, setDownloading] = useState(false);
  const copy = async () => {
    if (await copyText(props.caseNumber)) notify.success(UI_MESSAGES.caseNumberCopied);
  };
  const download = async () => {
    setDownloading(true);
    try {
      const { downloadCaseNumberPdf } = await import('./pdf.ts');
      await downloadCaseNumberPdf(props.caseNumber, props.createdAt);
    } catch (error) {
      notify.problem(error);
    } finally {
      setDownloading(false);
    }
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
                <Text bg="orange.subtle" color="orange.fg" p="3" rounded="md" fontSize="sm">
                  {props.guest
                    ? CASE_NUMBER_REMINDER
                    : 'Simpan Nomor Pengaduan ini dengan baik untuk menelusuri laporan Anda.'}
                </Text>
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
