import { RestError } from '../../lib/rest.ts';
import { getStoredUser } from '../../lib/user.ts';

export interface UploadedFile {
  name: string;
  size: number;
}

/**
 * Sends a SQLite file to POST /api/import/upload as the raw body. XMLHttpRequest rather than fetch: a
 * database of several GB takes a while, and only XHR reports how much of the upload has gone.
 */
export function uploadSqlite(file: File, onProgress: (fraction: number) => void): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/import/upload?name=${encodeURIComponent(file.name)}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    // The REST adapter asks who the session claims to be, as new-api's consoles say it.
    xhr.setRequestHeader('New-Api-User', String(getStoredUser()?.id ?? ''));
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText);
      if (body?.success && body.data) resolve(body.data);
      else reject(body ? new RestError(body.message ?? '', body.detail) : new Error(`${xhr.status} ${xhr.statusText}`));
    };
    xhr.onerror = () => reject(new Error('network error'));
    xhr.send(file);
  });
}

interface Envelope {
  success?: boolean;
  message?: string;
  data?: UploadedFile;
  detail?: string;
}

function parseEnvelope(text: string): Envelope | null {
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    return null; // not JSON: a proxy's error page
  }
}

/** 1.2 MB, 340 KB: the size of an uploaded file. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
