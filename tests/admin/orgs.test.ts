import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrgRow } from '../../src/contract/admin';
import { testDatabaseTargets } from '../helpers/databases';
import { createTestApp, type TestApp } from '../helpers/testApp';
import { call, injectLogged, signInAll } from './client';

type Page<T> = { rows: T[]; total: number };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - 8, 7)]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const TWO_MB = 2 * 1024 * 1024;

function multipart(filename: string, contentType: string, bytes: Buffer) {
  const boundary = '----roostTestBoundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(testDatabaseTargets())('organisations on $name', (target) => {
  let t: TestApp;
  let tokens: Awaited<ReturnType<typeof signInAll>>;
  let orgId: number;

  beforeAll(async () => {
    t = await createTestApp(target);
    tokens = await signInAll(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (
    id: number,
    filename: string,
    type: string,
    bytes: Buffer,
    token = tokens.admin,
    locale = 'en',
  ) => {
    const body = multipart(filename, type, bytes);
    return injectLogged(t, token, {
      method: 'POST',
      url: `/api/org/uploadLogo?id=${id}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType, locale },
      payload: body.payload,
    });
  };

  it('is for administrators only', async () => {
    for (const token of [tokens.company, tokens.area, tokens.farm, tokens.shack]) {
      expect((await call(t, token, 'GET', '/org/list')).status).toBe(403);
      expect((await call(t, token, 'POST', '/org/create', { name: 'X', code: 'X' })).status).toBe(
        403,
      );
      expect((await call(t, token, 'DELETE', '/org/delete', { id: 1 })).status).toBe(403);
    }
    const own = await call<Array<{ name: string }>>(t, tokens.farm, 'GET', '/org/listAll');
    expect(own.data.map((o) => o.name)).toEqual(['Golden Plains Poultry']);
  });

  it('creates, searches, updates and refuses a taken code', async () => {
    const created = await call<OrgRow>(t, tokens.admin, 'POST', '/org/create', {
      name: 'Hillside Eggs',
      code: 'HSE',
      principal: 'Ms Li',
      email: 'li@example.com',
      mapType: '2',
    });
    expect(created.status).toBe(200);
    orgId = created.data.id;
    const found = await call<Page<OrgRow>>(t, tokens.admin, 'GET', '/org/list?keyword=hill');
    expect(found.data.rows.map((o) => o.code)).toEqual(['HSE']);
    expect(found.data.rows[0]).toMatchObject({ mapType: '2', hasLogo: false });
    const taken = await call(
      t,
      tokens.admin,
      'POST',
      '/org/create',
      { name: 'Other', code: 'GPP' },
      'zh',
    );
    expect(taken.status).toBe(409);
    expect(taken.msg).toBe('该编码已存在。');
    const updated = await call<OrgRow>(t, tokens.admin, 'PUT', '/org/update', {
      id: orgId,
      name: 'Hillside Eggs Ltd',
      code: 'HSE',
      mapType: '1',
    });
    expect(updated.data).toMatchObject({ name: 'Hillside Eggs Ltd', mapType: '1' });
  });

  it('an update changes only the fields it sends; the others keep their values', async () => {
    const patched = await call<OrgRow>(t, tokens.admin, 'PUT', '/org/update', {
      id: orgId,
      remark: 'Layers only',
    });
    expect(patched.status).toBe(200);
    expect(patched.data).toMatchObject({
      name: 'Hillside Eggs Ltd',
      code: 'HSE',
      principal: 'Ms Li',
      email: 'li@example.com',
      mapType: '1',
      remark: 'Layers only',
    });
    const blank = await call(t, tokens.admin, 'PUT', '/org/update', { id: orgId, name: ' ' }, 'en');
    expect(blank.status).toBe(400);
    expect(blank.msg).toBe('Enter a name.');
    const noId = await call(t, tokens.admin, 'PUT', '/org/update', { remark: 'x' }, 'en');
    expect(noId.status).toBe(400);
  });

  it('refuses bad input with 400 in the request language', async () => {
    const en = await call(t, tokens.admin, 'POST', '/org/create', { name: ' ', code: 'Z' }, 'en');
    expect(en.status).toBe(400);
    expect(en.msg).toBe('Enter a name.');
    const zh = await call(
      t,
      tokens.admin,
      'POST',
      '/org/create',
      { name: 'Z', code: 'Z', email: 'nope' },
      'zh',
    );
    expect(zh.msg).toBe('邮箱格式不正确。');
    const map = await call(t, tokens.admin, 'POST', '/org/create', {
      name: 'Z',
      code: 'Z',
      mapType: '3',
    });
    expect(map.status).toBe(400);
  });

  it('accepts a PNG by its bytes whatever its name, and serves it as base64', async () => {
    const res = await upload(orgId, 'logo.jpg', 'image/jpeg', png(1000));
    expect(res.statusCode).toBe(200);
    const exact = await upload(orgId, 'big.png', 'image/png', png(TWO_MB));
    expect(exact.statusCode).toBe(200);
    const logo = await call<string>(t, tokens.admin, 'GET', `/org/getLogo?id=${orgId}`);
    expect(Buffer.from(logo.data, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(logo.res.headers['x-content-type-options']).toBe('nosniff');
    // Others get their own organisation's logo, never one they name.
    const own = await call<string>(t, tokens.farm, 'GET', `/org/getLogo?id=${orgId}`);
    expect(own.data).toBe('');
  });

  it('refuses a JPEG or an SVG named .png, and a 2.1 MB or 2 MB + 1 byte PNG with 413', async () => {
    const jpeg = await upload(orgId, 'logo.png', 'image/png', JPEG);
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json()).toMatchObject({ msg: 'The logo must be a PNG image.' });
    const svg = await upload(orgId, 'logo.png', 'image/png', SVG);
    expect(svg.statusCode).toBe(400);
    expect(svg.json()).toMatchObject({ msg: 'The logo must be a PNG image.' });
    const svgNamed = await upload(orgId, 'logo.svg', 'image/svg+xml', SVG, tokens.admin, 'zh');
    expect(svgNamed.json()).toMatchObject({ msg: 'Logo 只能是 PNG 图片。' });
    const twoPointOne = await upload(orgId, 'big.png', 'image/png', png(Math.round(2.1 * TWO_MB)));
    expect(twoPointOne.statusCode).toBe(413);
    expect(twoPointOne.json()).toMatchObject({ msg: 'The logo is larger than 2 MB.' });
    const big = await upload(orgId, 'big.png', 'image/png', png(TWO_MB + 1));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 413, msg: 'The logo is larger than 2 MB.' });
    expect(
      (await upload(orgId, 'logo.png', 'image/png', png(100), tokens.company)).statusCode,
    ).toBe(403);
  });

  it('refuses to delete an organisation that still has farms or users, deletes an empty one', async () => {
    const orgs = await call<Page<OrgRow>>(t, tokens.admin, 'GET', '/org/list?keyword=golden');
    const demo = orgs.data.rows[0]!;
    const refused = await call(t, tokens.admin, 'DELETE', '/org/delete', { id: demo.id });
    expect(refused.status).toBe(409);
    expect(refused.msg).toMatch(/still has \d+ farm nodes and \d+ users/);
    expect((await call(t, tokens.admin, 'DELETE', '/org/delete', { id: orgId })).status).toBe(200);
    expect((await call(t, tokens.admin, 'DELETE', '/org/delete', { id: orgId })).status).toBe(404);
  });
});
