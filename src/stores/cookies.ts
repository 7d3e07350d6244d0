/**
 * The cookies the console keeps (credentials, language, sidebar, size, layout settings); an
 * interface so stores can be tested without a DOM.
 */
export interface CookieJar {
  get(name: string): string | undefined;
  /** `maxAgeSeconds`: how long the cookie lives; a year unless given. */
  set(name: string, value: string, maxAgeSeconds?: number): void;
  remove(name: string): void;
}

/** Preferences live a year; credentials as long as their session (CREDENTIAL_COOKIE_MAX_AGE_S). */
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** `document.cookie`, path `/`, SameSite=Strict (and Secure over HTTPS). */
export class DocumentCookieJar implements CookieJar {
  constructor(private readonly doc: Document) {}

  get(name: string): string | undefined {
    for (const part of this.doc.cookie.split(';')) {
      const index = part.indexOf('=');
      if (index < 0) continue;
      if (part.slice(0, index).trim() === name)
        return decodeURIComponent(part.slice(index + 1).trim());
    }
    return undefined;
  }

  set(name: string, value: string, maxAgeSeconds = COOKIE_MAX_AGE_S): void {
    this.write(`${name}=${encodeURIComponent(value)}; max-age=${maxAgeSeconds}`);
  }

  remove(name: string): void {
    this.write(`${name}=; max-age=0`);
  }

  private write(cookie: string): void {
    const secure = this.doc.location.protocol === 'https:' ? '; Secure' : '';
    this.doc.cookie = `${cookie}; path=/; SameSite=Strict${secure}`;
  }
}

/** A jar in memory, for tests and for code that runs outside a browser. */
export class MemoryCookieJar implements CookieJar {
  readonly values = new Map<string, string>();
  /** Each cookie's lifetime in seconds, as a browser would be told. */
  readonly maxAges = new Map<string, number>();
  constructor(initial: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(initial)) this.values.set(name, value);
  }
  get(name: string): string | undefined {
    return this.values.get(name);
  }
  set(name: string, value: string, maxAgeSeconds = COOKIE_MAX_AGE_S): void {
    this.values.set(name, value);
    this.maxAges.set(name, maxAgeSeconds);
  }
  remove(name: string): void {
    this.values.delete(name);
    this.maxAges.delete(name);
  }
}
