/**
 * The bell and the Notifikasi preferences of staff users (docs/product/notifications.md#handlers), the
 * digest's one-click unsubscribe, and the administrator's dead letters of the mail queues. A user
 * reads and changes only their own notices: the user comes from the session, never from the request.
 */
import { messageReply } from '@wbs/shared/api/common';
import {
  type DeadLetterParams,
  deadLetterListReply,
  deadLetterParams,
  digestUnsubscribeQuery,
  type NoticeListQuery,
  type NoticePreferencesRequest,
  type NoticeReadRequest,
  noticeListQuery,
  noticeListReply,
  noticePreferencesReply,
  noticePreferencesRequest,
  noticeReadReply,
  noticeReadRequest,
} from '@wbs/shared/api/notices';
import { wibWallTime } from '@wbs/shared/handling-clock';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { LOCKED_NOTICE_KINDS, NOTICE_KINDS } from '@wbs/shared/notices';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { ApiProblem } from '../../errors.ts';
import { deadLetters, sendBack } from '../../jobs/dead-letters.ts';
import { audit } from '../../logging.ts';
import {
  listNotices,
  markRead,
  preferencesOf,
  savePreferences,
  stopDigests,
} from '../../notifications/store.ts';
import { userOfUnsubscribeToken } from '../../notifications/unsubscribe.ts';
import { routeSchema } from '../../schema.ts';
import { storeCall } from '../../store/plugin.ts';

const tags = ['notices'];

/** The signed-in user (every route here has a signed-in policy, so there is one). */
function userOf(request: FastifyRequest) {
  const user = request.session?.user;
  if (!user) throw new ApiProblem('unauthorized');
  return user;
}

export default async function noticeRoutes(app: FastifyInstance) {
  // The one-click unsubscribe is posted by mail providers as a form (`List-Unsubscribe=One-Click`,
  // RFC 8058); its content says nothing the token does not, so it is read and left. Scoped to these
  // routes: the rest of the API takes JSON only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, undefined),
  );
  app.get<{ Querystring: NoticeListQuery }>(
    '/notices',
    {
      config: { policy: 'notices:read' },
      schema: routeSchema({
        summary: 'Notifikasi (lonceng)',
        description:
          'The signed-in user’s notices, newest first, 30 per page (`before`: the next page), and how ' +
          'many are unread. A notice names its kind, company and case id; never a text or a name.',
        tags,
        querystring: noticeListQuery,
        response: { 200: noticeListReply },
      }),
    },
    async (request) => {
      const user = userOf(request);
      const list = await storeCall(request, (store) => listNotices(store, user.id, request.query.before));
      return {
        ...list,
        items: list.items.map((item) => ({ ...item, createdAt: wibWallTime(item.createdAt) })),
      };
    },
  );

  app.post<{ Body: NoticeReadRequest }>(
    '/notices/read',
    {
      config: { policy: 'notices:read' },
      schema: routeSchema({
        summary: 'Tandai notifikasi dibaca',
        description:
          'Marks the listed notices (`ids`) or all of them (`all: true`) read; ids of others change nothing.',
        tags,
        body: noticeReadRequest,
        response: { 200: noticeReadReply },
      }),
    },
    async (request) => {
      const user = userOf(request);
      const ids = 'all' in request.body ? 'all' : request.body.ids;
      return { unread: await storeCall(request, (store) => markRead(store, user.id, ids)) };
    },
  );

  app.get(
    '/notice-preferences',
    {
      config: { policy: 'notices:read' },
      schema: routeSchema({
        summary: 'Preferensi notifikasi',
        description:
          'How each kind of notice is mailed to the signed-in user: at once, in the 07:00 WIB digest, or ' +
          'not (the bell always shows it). Security notices are always mailed at once (`locked`).',
        tags,
        response: { 200: noticePreferencesReply },
      }),
    },
    async (request) => {
      const user = userOf(request);
      const prefs = await storeCall(request, async (store) =>
        (await preferencesOf(store.db, [user.id])).get(user.id),
      );
      return {
        items: NOTICE_KINDS.map((kind) => ({
          kind,
          mail: prefs?.[kind] ?? 'off',
          locked: LOCKED_NOTICE_KINDS.has(kind),
        })),
        hasEmail: Boolean(user.email),
      };
    },
  );

  app.put<{ Body: NoticePreferencesRequest }>(
    '/notice-preferences',
    {
      config: { policy: 'notices:read' },
      schema: routeSchema({
        summary: 'Simpan preferensi notifikasi',
        description:
          'Saves the mail choice of the kinds listed; a security notice’s choice is ignored (always at once).',
        tags,
        body: noticePreferencesRequest,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const user = userOf(request);
      await storeCall(request, (store) => savePreferences(store, user.id, request.body.items));
      audit(request, 'notice-preferences-saved', { resource: 'notice-preferences' });
      return { message: UI_MESSAGES.noticePreferencesSaved };
    },
  );

  app.post<{ Querystring: v.InferOutput<typeof digestUnsubscribeQuery> }>(
    '/notice-preferences/unsubscribe',
    {
      config: { policy: 'notices:unsubscribe' },
      schema: routeSchema({
        summary: 'Berhenti berlangganan ringkasan harian',
        description:
          'The one-click unsubscribe of the daily digest (RFC 8058, `List-Unsubscribe-Post`): the token of ' +
          'the mail’s link stops that user’s digests. Any other token: 404.',
        tags,
        querystring: digestUnsubscribeQuery,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const userId = userOfUnsubscribeToken(request.server.config.sessionSecret, request.query.token);
      if (userId === null) throw new ApiProblem('not-found');
      await storeCall(request, (store) => stopDigests(store, userId));
      return { message: UI_MESSAGES.digestStopped };
    },
  );

  app.get(
    '/mail/dead-letters',
    {
      config: { policy: 'mail-dead-letters:manage' },
      schema: routeSchema({
        summary: 'Surel yang gagal dikirim',
        description:
          'Mail jobs that failed every retry (SMTP refused or down for hours), oldest first: which queue and ' +
          'since when. No address and no content: the jobs hold ids only.',
        tags,
        response: { 200: deadLetterListReply },
      }),
    },
    async (request) => {
      const items = await deadLetters(request.server.jobs);
      return { items: items.map((item) => ({ ...item, createdAt: wibWallTime(item.createdAt) })) };
    },
  );

  app.post<{ Params: DeadLetterParams }>(
    '/mail/dead-letters/:id/retry',
    {
      config: { policy: 'mail-dead-letters:manage' },
      schema: routeSchema({
        summary: 'Kirim ulang surel yang gagal',
        description: 'Sends a dead letter back to its queue (retried as a new job); an unknown id: 404.',
        tags,
        params: deadLetterParams,
        response: { 200: messageReply },
      }),
    },
    async (request) => {
      const queue = await sendBack(request.server.jobs, request.params.id);
      if (!queue) throw new ApiProblem('not-found');
      audit(request, 'mail-dead-letter-retried', { resource: 'mail-job', queue });
      return { message: UI_MESSAGES.deadLetterRetried };
    },
  );
}
