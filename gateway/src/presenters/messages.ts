/**
 * Messages and identity-access rows as they leave the gateway. The reporter never learns who
 * handled the case: every handler is "Tim Penanganan WBS" to them, without a role. Staff see the
 * handler's name and role. The store keeps moments (timestamptz); replies give them as WIB wall time
 * like every other instant of the API (docs/api-contract.md, "Timestamps").
 */
import type { IdentityAccessReply, Message } from '@wbs/shared/api/messages';
import type { UserTypeId } from '@wbs/shared/constants';
import { wibWallTime } from '@wbs/shared/handling-clock';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { USER_TYPE_NAMES } from '@wbs/shared/permissions';
import type { IdentityAccessRow } from '../store/identity-access.ts';
import type { Seen, StoredMessage } from '../store/messages.ts';

export type Reader = 'staff' | 'reporter';

const userTypeName = (type: number | null) =>
  type === null ? null : (USER_TYPE_NAMES[type as UserTypeId] ?? null);

export function presentMessage(message: StoredMessage, reader: Reader, seen: Seen): Message {
  const fromHandler = message.from === 'handler';
  const isNew =
    reader === 'staff'
      ? !fromHandler && message.id > seen.handlerSeenId
      : fromHandler && message.id > seen.reporterSeenId;
  const handlerLabel =
    reader === 'staff' ? (message.content.authorName ?? UI_MESSAGES.handlerTeam) : UI_MESSAGES.handlerTeam;
  return {
    id: message.id,
    from: message.from,
    authorLabel: fromHandler ? handlerLabel : UI_MESSAGES.reporterLabel,
    authorRole: reader === 'staff' && fromHandler ? userTypeName(message.authorUserType) : null,
    text: message.content.text,
    createdAt: wibWallTime(message.createdAt),
    isNew,
  };
}

export function presentIdentityAccess(identified: boolean, rows: IdentityAccessRow[]): IdentityAccessReply {
  return {
    identified,
    entries: rows.map((row) => ({
      accessedAt: wibWallTime(row.accessedAt),
      role: userTypeName(row.readerUserType) ?? UI_MESSAGES.handlerTeam,
      kind: row.kind,
    })),
  };
}
