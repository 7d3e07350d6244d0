import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Notification, TryResult } from '../alarms/channels';
import { alarmSubject, alarmText, type NotifyLocale } from './message';
import { realSleep, withRetry, type Sleep } from './retry';

/** An SMTP conversation gives up after this long: a hung mail server counts as failed. */
const SMTP_TIMEOUT_MS = 15_000;

/**
 * E-mail over SMTP (nodemailer): one mail per person, each with the acknowledge link that is
 * theirs (server/notify/mail.ts decides who and signs the links).
 */
export class EmailAdapter {
  readonly name = 'smtp';
  private readonly transport: Transporter;

  constructor(
    private readonly o: {
      /** smtp://user:password@host:587 or smtps://…:465. */
      smtpUrl: string;
      from: string;
      locale: NotifyLocale;
      timeZone: string;
      sleep?: Sleep;
    },
  ) {
    const options: SMTPTransport.Options = {
      url: o.smtpUrl,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    };
    this.transport = nodemailer.createTransport(options);
  }

  /** Mails `n` (its link the recipient's own) to one mailbox. */
  send(
    to: string,
    n: Notification,
    onTry: (tryNo: number, result: TryResult) => Promise<void>,
  ): Promise<TryResult> {
    const attempt = async (): Promise<TryResult> => {
      const info = await this.transport.sendMail({
        from: this.o.from,
        to,
        subject: alarmSubject(n, this.o.locale),
        text: alarmText(n, this.o.locale, this.o.timeZone),
      });
      const refusedTo = (info.rejected ?? []).length;
      return refusedTo === 0
        ? { ok: true, detail: `${info.response}`.slice(0, 200) }
        : { ok: false, detail: `refused: ${info.response}`.slice(0, 200) };
    };
    return withRetry(attempt, onTry, this.o.sleep ?? realSleep);
  }

  close(): void {
    this.transport.close();
  }
}
