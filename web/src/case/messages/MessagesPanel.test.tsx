/**
 * Pesan with a conversation the page already read (the reporter's copy read it first): shown as it
 * came, new marks included, without reading it again (which would clear the marks unseen); every
 * conversation shown is told to the page.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { Message } from '@wbs/shared/api/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '../../theme.ts';
import { MessagesPanel } from './MessagesPanel.tsx';
import { MESSAGE_TEXTS } from './texts.ts';

vi.mock('../../ui/toaster.tsx', () => ({ notify: { problem: vi.fn(), success: vi.fn() } }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reply: Message = {
  id: 7,
  from: 'handler',
  authorLabel: 'Tim Penanganan WBS',
  authorRole: null,
  text: 'Mohon kirim dokumen pendukung.',
  createdAt: '2026-05-05T10:00:00',
  isNew: true,
};
const access = { kind: 'tracker', caseNumber: 'WBS-10000002', password: 'Lapor#2026!' } as const;

function renderPanel(initialMessages: Message[] | null, onMessages: (messages: Message[]) => void) {
  const fetch = vi.fn(async () => Response.json({ messages: [{ ...reply, isNew: false }] }));
  vi.stubGlobal('fetch', fetch);
  render(
    <ChakraProvider value={system}>
      <MessagesPanel
        access={access}
        audience="reporter"
        canWrite
        initialMessages={initialMessages}
        onMessages={onMessages}
      />
    </ChakraProvider>,
  );
  return fetch;
}

describe('Pesan with a conversation already read', () => {
  it('shows it with its marks and does not read it again', async () => {
    const onMessages = vi.fn();
    const fetch = renderPanel([reply], onMessages);
    expect(screen.getByText(reply.text)).toBeTruthy();
    expect(screen.getByText(MESSAGE_TEXTS.newBadge)).toBeTruthy();
    await waitFor(() => expect(onMessages).toHaveBeenCalledWith([reply]));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('without one, reads the conversation and tells the page', async () => {
    const onMessages = vi.fn();
    const fetch = renderPanel(null, onMessages);
    await screen.findByText(reply.text);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(onMessages).toHaveBeenCalledWith([{ ...reply, isNew: false }]);
    expect(screen.queryByText(MESSAGE_TEXTS.newBadge)).toBeNull();
  });
});
