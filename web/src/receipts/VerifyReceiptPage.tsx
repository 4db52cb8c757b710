import { Box, Button, Container, Heading, Stack, Text, Textarea } from '@chakra-ui/react';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { ApiError, type ApiReply, api } from '../api/client.ts';
import { formatWib } from '../case/receiptTime.ts';
import { FormField } from '../ui/FormField.tsx';
import { notify } from '../ui/toaster.tsx';
import { codeInFile } from './extractCode.ts';

type ReceiptVerifyReply = ApiReply<'post', '/api/v1/receipts/verify'>;

const NO_CODE_IN_PDF =
  'Kode tanda terima tidak ditemukan di berkas ini. Pilih PDF Bukti Pengaduan dari sistem ini, atau tempel kodenya.';

/**
 * Verifikasi Tanda Terima (/verifikasi-tanda-terima, public): a receipt's code, pasted or read from
 * its PDF in the browser, is checked by the gateway's signature check; the answer is "sah" with the
 * number and filing time, or "tidak sah". The code goes in a POST body, never in the URL.
 */
export default function VerifyReceiptPage() {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [verdict, setVerdict] = useState<ReceiptVerifyReply | null>(null);
  const [busy, setBusy] = useState(false);

  const check = async (value: string) => {
    const trimmed = value.trim();
    setVerdict(null);
    if (!trimmed) {
      setError('Kode tanda terima wajib diisi');
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      setVerdict(
        await api.POST('/api/v1/receipts/verify', {
          body: { code: trimmed },
          authRedirect: false,
        }),
      );
    } catch (problem) {
      if (problem instanceof ApiError && problem.fieldErrors.code) setError(problem.fieldErrors.code);
      else notify.problem(problem);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void check(code);
  };

  const pickPdf = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const found = await codeInFile(file).catch(() => null);
    if (!found) {
      setVerdict(null);
      setError(NO_CODE_IN_PDF);
      return;
    }
    setCode(found);
    await check(found);
  };

  return (
    <Container maxW="3xl" py="8">
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          Verifikasi Tanda Terima
        </Heading>
        <Text>
          Periksa apakah Bukti Pengaduan benar diterbitkan sistem ini: pilih berkas PDF-nya atau tempel kode
          tanda terima yang tercetak di bawah kode QR. Berkas tidak dikirim; hanya kodenya yang diperiksa.
        </Text>
        <Box>
          <Button asChild variant="outline">
            <label>
              Pilih PDF Bukti Pengaduan
              <input
                type="file"
                accept="application/pdf,.pdf"
                hidden
                data-testid="receipt-pdf"
                onChange={(event) => void pickPdf(event)}
              />
            </label>
          </Button>
        </Box>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <FormField label="Kode tanda terima" error={error}>
              <Textarea
                name="code"
                rows={4}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                fontFamily="mono"
                fontSize="sm"
              />
            </FormField>
            <Box>
              <Button type="submit" loading={busy} disabled={busy}>
                Periksa
              </Button>
            </Box>
          </Stack>
        </form>
        {verdict && <Verdict verdict={verdict} />}
      </Stack>
    </Container>
  );
}

function Verdict({ verdict }: { verdict: ReceiptVerifyReply }) {
  if (!verdict.valid || !verdict.caseNumber || !verdict.filedAt) {
    return (
      <Box role="status" borderWidth="1px" borderColor="red.500" bg="red.50" rounded="md" p="4">
        <Text fontWeight="bold" color="red.700">
          Tanda terima TIDAK SAH
        </Text>
        <Text>Kode ini tidak ditandatangani sistem ini, atau telah diubah.</Text>
      </Box>
    );
  }
  return (
    <Box role="status" borderWidth="1px" borderColor="green.600" bg="green.50" rounded="md" p="4">
      <Text fontWeight="bold" color="green.800">
        Tanda terima SAH
      </Text>
      <Text>
        Nomor Pengaduan: <strong data-testid="receipt-number">{verdict.caseNumber}</strong>
      </Text>
      <Text>Tanggal dibuat: {formatWib(new Date(verdict.filedAt))}</Text>
      <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
        Ringkasan isi (SHA-256): {verdict.digest} · Kunci: {verdict.keyId}
      </Text>
    </Box>
  );
}
