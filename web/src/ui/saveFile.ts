/**
 * Hands a file to the browser's own download, under `fileName`: a Blob (an export or attachment the
 * gateway sent) or a data URL (a chart drawn in the page). The one way the app saves a file.
 */
export function saveFile(file: Blob | string, fileName: string): void {
  const url = typeof file === 'string' ? file : URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser takes the object URL's bytes once the download has started; freed after that.
  if (typeof file !== 'string') setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
