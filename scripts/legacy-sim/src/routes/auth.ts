/** JwtAuth and User calls, UserRole, WhistleblowerMaster. */
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';
import { NOT_FOUND, ok, warn } from '../envelope.ts';
import { hashPassword, randomPassword, verifyPassword } from '../passwords.ts';
import { userRecord, whistleblower } from '../present.ts';
import { USER_ROLES } from '../seed/constants.ts';
import { body, param, str } from './util.ts';

/** Login reply sub-object by user type (type 1 answers `{ token, wbsUser }`). */
export const LOGIN_KEYS: Record<number, string> = {
  2: 'companyWbsUser',
  3: 'partnerWbsUser',
  4: 'companyStaffWbsUser',
  5: 'partnerStaffWbsUser',
  6: 'whistleblowerWbsUser',
};

export function authRoutes(app: FastifyInstance, ctx: Ctx): void {
  const { store } = ctx;

  app.post('/api/JwtAuth/Login', { config: { public: true } }, async (request) => {
    const b = body(request);
    const userName = str(b, 'userName');
    const password = typeof b.password === 'string' ? b.password : '';
    if (!userName) return warn('Username wajib diisi');
    if (!password) return warn('Kata sandi wajib diisi');
    const user = store.usersByName.get(userName.toLowerCase());
    if (!user || !(await verifyPassword(password, user.passwordHash)))
      return warn('Username atau kata sandi salah');
    const token = ctx.sign(user);
    const record = userRecord(ctx, user);
    const message = user.wbsUserInitPassword ? ['Silakan ubah kata sandi awal Anda'] : ['Login berhasil'];
    const key = LOGIN_KEYS[user.wbsUserUserTypeId];
    return ok(key ? { [key]: { ...record, token } } : { token, wbsUser: record }, ...message);
  });

  app.post('/api/JwtAuth/Logout', { config: { initAllowed: true } }, async (request) => {
    if (request.tokenJti) ctx.revoked.add(request.tokenJti);
    return ok(null, 'Berhasil Keluar');
  });

  app.put('/api/User/ForgotPassword', { config: { public: true } }, async (request) => {
    const email = str(body(request), 'email').toLowerCase();
    if (!email) return warn('Email wajib diisi');
    const known = store.users.find((u) => u.wbsUserEmail.toLowerCase() === email);
    // The legacy leaks whether the e-mail exists; the gateway hides it.
    if (!known) return warn('Email tidak terdaftar');
    return ok(null, 'Silakan periksa email Anda untuk mengatur ulang kata sandi');
  });

  app.put('/api/User/ChangePassword', { config: { initAllowed: true } }, async (request) => {
    const b = body(request);
    const me = request.wbsUser!;
    const oldPassword = typeof b.oldPassword === 'string' ? b.oldPassword : '';
    const newPassword = typeof b.newPassword === 'string' ? b.newPassword : '';
    const confirm = typeof b.confirmNewPassword === 'string' ? b.confirmNewPassword : '';
    const errors: string[] = [];
    if (!oldPassword) errors.push('Kata sandi lama wajib diisi');
    if (!newPassword) errors.push('Kata sandi baru wajib diisi');
    else if (newPassword.length < 8) errors.push('Kata sandi baru minimal 8 karakter.');
    if (!confirm) errors.push('Konfirmasi kata sandi baru wajib diisi');
    else if (confirm !== newPassword) errors.push('Konfirmasi kata sandi baru tidak sama');
    if (errors.length) return warn(...errors);
    // The token's user is the one changed (userId in the payload is accepted but not trusted).
    if (!(await verifyPassword(oldPassword, me.passwordHash))) return warn('Kata sandi lama salah');
    me.passwordHash = await hashPassword(newPassword);
    me.wbsUserInitPassword = 0;
    me.initialPassword = null;
    await store.save();
    return ok(null, 'Kata sandi berhasil diubah');
  });

  app.put('/api/User/ResetPassword/:userId', async (request) => {
    const user = store.users.get(param(request, 'userId'));
    if (!user) return warn(NOT_FOUND);
    const password = randomPassword();
    user.passwordHash = await hashPassword(password);
    user.wbsUserInitPassword = 1;
    user.initialPassword = password;
    await store.save();
    return ok(null, 'Kata sandi berhasil direset', password);
  });

  app.get('/api/UserRole', async () => ok(USER_ROLES.map((r) => ({ ...r }))));

  app.post('/api/WhistleblowerMaster/Detail', async (request) => {
    const b = body(request);
    const wb = store.whistleblowers.get(Number(b.whistleblowerId));
    return wb ? ok(whistleblower(wb)) : warn(NOT_FOUND);
  });

  app.put('/api/WhistleblowerMaster', async (request) => {
    const b = body(request);
    const wb = store.whistleblowers.get(Number(b.whistleblowerId));
    if (!wb) return warn(NOT_FOUND);
    const fullName = str(b, 'whistleblowerFullName');
    if (!fullName) return warn('Username wajib diisi');
    if (fullName.length > 50) return warn('Maksimal 50 Karakter');
    wb.whistleblowerFullName = fullName;
    const anon = b.isAnonymous;
    wb.whistleblowerIsAnonymous = anon === true || anon === 1 || anon === '1' || anon === 'true';
    await store.save();
    return ok(whistleblower(wb), 'Profil berhasil disimpan');
  });
}
