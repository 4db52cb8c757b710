import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useRef,
  useState,
} from 'react';

export type ConfirmOptions = {
  title: string;
  message: string;
  /** The action button: Simpan, Hapus or Oke. */
  actionLabel?: 'Simpan' | 'Hapus' | 'Oke';
};

type Pending = ConfirmOptions & { resolve: (ok: boolean) => void };

const ConfirmContext = createContext<((options: ConfirmOptions) => Promise<boolean>) | null>(null);
// The dialog machinery (focus trap, scroll lock) loads on first use, not with the landing page.
const ConfirmDialogView = lazy(() => import('./ConfirmDialogView.tsx'));

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
        <Suspense fallback={null}>
          <ConfirmDialogView
            open={pending !== null}
            title={pending?.title ?? ''}
            message={pending?.message ?? ''}
            actionLabel={pending?.actionLabel ?? 'Oke'}
            onClose={close}
          />
        </Suspense>
      )}
    </ConfirmContext.Provider>
  );
}
