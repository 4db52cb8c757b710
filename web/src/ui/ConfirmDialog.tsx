import {
  createContext,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from 'react';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { lazyWithRetry } from './lazyWithRetry.tsx';

export type ConfirmOptions = {
  title: string;
  message: string;
  /** The action button: Simpan, Hapus or Oke. */
  actionLabel?: 'Simpan' | 'Hapus' | 'Oke';
};

type Pending = ConfirmOptions & { resolve: (ok: boolean) => void };

const ConfirmContext = createContext<((options: ConfirmOptions) => Promise<boolean>) | null>(null);
// The dialog machinery (focus trap, scroll lock) loads on first use, not with the landing page.
const ConfirmDialogView = lazyWithRetry(() => import('./ConfirmDialogView.tsx'));
/** Loads the dialog before a flow that will ask (the wizard), so a dropped connection cannot stop it. */
export const preloadConfirmDialog = () => ConfirmDialogView.preload();

/** The dialog could not load: ask with the browser's own confirm, so the question is never lost. */
function NativeConfirm(props: { pending: Pending | null; onClose: (ok: boolean) => void }) {
  const { pending, onClose } = props;
  useEffect(() => {
    if (pending) onClose(window.confirm(`${pending.title}\n\n${pending.message}`));
  }, [pending, onClose]);
  return null;
}

/** `await confirm({ title, message, actionLabel })` → true when the action button was chosen. */
export function useConfirm() {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm outside ConfirmProvider');
  return confirm;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [used, setUsed] = useState(false);
  const pendingRef = useRef<Pending | null>(null);
  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        const next = { ...options, resolve };
        pendingRef.current = next;
        setUsed(true);
        setPending(next);
      }),
    [],
  );
  const close = useCallback((ok: boolean) => {
    pendingRef.current?.resolve(ok);
    pendingRef.current = null;
    setPending(null);
  }, []);
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {used && (
        <ErrorBoundary fallback={() => <NativeConfirm pending={pending} onClose={close} />}>
          <Suspense fallback={null}>
            <ConfirmDialogView
              open={pending !== null}
              title={pending?.title ?? ''}
              message={pending?.message ?? ''}
              actionLabel={pending?.actionLabel ?? 'Oke'}
              onClose={close}
            />
          </Suspense>
        </ErrorBoundary>
      )}
    </ConfirmContext.Provider>
  );
}
