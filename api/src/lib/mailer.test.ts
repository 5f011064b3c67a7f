import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { makeTempDir } from '../test/app';
import { createMailer } from './mailer';

describe('createMailer', () => {
  it('writes each message as an .eml file in the outbox, named by time and id', async () => {
    const dir = makeTempDir('portal-mail-');
    const outboxDir = path.join(dir, 'outbox');
    const mailer = createMailer({ smtpUrl: null, from: 'Acme Portal <no-reply@acme.test>', outboxDir });
    try {
      const first = await mailer.send({
        to: 'someone@example.test',
        subject: 'Hello',
        text: 'Line one\n\nhttps://portal.test/x?token=abc',
      });
      const second = await mailer.send({ to: 'someone@example.test', subject: 'Again', text: 'Two' });
      expect(first.file).not.toBe(second.file);
      const names = fs.readdirSync(outboxDir).sort();
      expect(names).toHaveLength(2);
      for (const name of names) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f-]{36}\.eml$/);
      const raw = fs.readFileSync(first.file!, 'utf8');
      expect(raw).toMatch(/^From: Acme Portal <no-reply@acme\.test>$/m);
      expect(raw).toMatch(/^To: someone@example\.test$/m);
      expect(raw).toMatch(/^Subject: Hello$/m);
      expect(raw).toContain('https://portal.test/x?token=abc');
      expect(first.messageId).toMatch(/@/);
    } finally {
      mailer.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds a calendar invitation as a text/calendar alternative with its method and as an .ics attachment', async () => {
    const dir = makeTempDir('portal-mail-');
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Portal <no-reply@acme.test>',
      outboxDir: path.join(dir, 'outbox'),
    });
    const content = 'BEGIN:VCALENDAR\r\nMETHOD:CANCEL\r\nSUMMARY:Café\r\nEND:VCALENDAR\r\n';
    try {
      const sent = await mailer.send({
        to: 'someone@example.test',
        subject: 'Canceled',
        text: 'Gone',
        icalEvent: { method: 'CANCEL', filename: 'invite.ics', content },
      });
      const raw = fs.readFileSync(sent.file!, 'utf8');
      expect(raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=CANCEL$/m);
      expect(raw).toMatch(/^Content-Disposition: attachment; filename=invite\.ics$/m);
      const attachment = /filename=invite\.ics\nContent-Transfer-Encoding: base64\n\n([A-Za-z0-9+/=\n]+)/.exec(raw);
      expect(Buffer.from(attachment![1].replace(/\n/g, ''), 'base64').toString('utf8')).toBe(content);
    } finally {
      mailer.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    // A port that refuses connections: listen, note it, close.
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as net.AddressInfo;
        server.close(() => resolve(p));
      });
    });
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'x@example.test',
      outboxDir: '/nonexistent',
    });
    try {
      await expect(mailer.send({ to: 'a@example.test', subject: 's', text: 't' })).rejects.toThrow();
    } finally {
      mailer.close();
    }
  });
});
