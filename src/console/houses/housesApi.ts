import { type Query } from '../../api/client';
import { type ExportFormat } from '../../contract/houses';

export class ExportError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Downloads an export (CSV or XLSX) with the session's headers and hands it to the browser.
 * A refusal carries the server's message in the envelope (404 'No data has been found').
 */
export async function downloadExport(
  path: string,
  query: Query & { format: ExportFormat },
  headers: { token: string | undefined; locale: string },
): Promise<{ name: string; text?: string }> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined) params.set(key, String(value));
  const response = await fetch(`/api${path}?${params.toString()}`, {
    credentials: 'include',
    headers: {
      Locale: headers.locale,
      Source: 'computer',
      ...(headers.token ? { Authorization: `Bearer ${headers.token}` } : {}),
    },
  });
  if (!response.ok) {
    let message = '';
    try {
      message = ((await response.json()) as { msg?: string }).msg ?? '';
    } catch {
      // Not an envelope: the generic 'File export failed' follows.
    }
    throw new ExportError(message, response.status);
  }
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `export.${query.format}`;
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL can go once it is handed over.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { name };
}
