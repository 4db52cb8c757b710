/**
 * Reads the receipt code back out of a "Bukti Pengaduan" PDF, in the browser: our PDF keeps the code
 * in its (uncompressed) document information as plain ASCII, so a scan of the file's bytes finds it.
 * Nothing is uploaded; only the code found is sent to be checked.
 */
export const RECEIPT_CODE = /WBSR1\.[A-Za-z0-9_-]{10,1500}\.[A-Za-z0-9_-]{80,90}/;
/** A receipt PDF is a few hundred kB; anything far larger is not one. */
export const MAX_RECEIPT_PDF_BYTES = 5 * 1024 * 1024;

export function codeInBytes(bytes: Uint8Array): string | null {
  // latin1 maps every byte to one character, so ASCII runs survive whatever surrounds them.
  const text = new TextDecoder('latin1').decode(bytes);
  return RECEIPT_CODE.exec(text)?.[0] ?? null;
}

export async function codeInFile(file: Blob): Promise<string | null> {
  if (file.size > MAX_RECEIPT_PDF_BYTES) return null;
  return codeInBytes(new Uint8Array(await file.arrayBuffer()));
}
