import { useCallback, useRef } from 'react';

/**
 * Canvases of the charts on screen, by chart name, for Ekspor PNG (the dashboard and Statistik). Each
 * name keeps one stable ref callback, so a re-render does not detach and re-attach its canvas.
 */
export function useCanvasRegistry() {
  const canvases = useRef(new Map<string, HTMLCanvasElement>());
  const refs = useRef(new Map<string, (canvas: HTMLCanvasElement | null) => void>());
  const refFor = useCallback((name: string) => {
    let ref = refs.current.get(name);
    if (!ref) {
      ref = (canvas) => {
        if (canvas) canvases.current.set(name, canvas);
        else canvases.current.delete(name);
      };
      refs.current.set(name, ref);
    }
    return ref;
  }, []);
  const canvasOf = useCallback((name: string) => canvases.current.get(name), []);
  return { refFor, canvasOf };
}
