/** The Content-Type of each detected file kind, as sent on to the legacy (which stores it for downloads). */
export const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  ai: 'application/pdf',
  png: 'image/png',
  apng: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
};
