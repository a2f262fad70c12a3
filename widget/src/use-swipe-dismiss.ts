// Swipe right to dismiss (docs/product.md §9: 50 px threshold), shared by the widget's toasts and the
// portal's. Returns the card's current offset and the pointer handlers to spread on it.
import { useRef, useState, type PointerEvent } from 'react';

export const SWIPE_DISMISS_PX = 50;

export function useSwipeDismiss(onDismiss: () => void, thresholdPx = SWIPE_DISMISS_PX) {
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);

  const end = () => {
    start.current = null;
    if (offset >= thresholdPx) onDismiss();
    else setOffset(0);
  };

  const handlers = {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      start.current = event.clientX;
    },
    onPointerMove: (event: PointerEvent<HTMLElement>) => {
      if (start.current === null) return;
      const moved = Math.max(0, event.clientX - start.current);
      // Captured only once a real swipe begins, so a tap (with a little jitter) still reaches
      // the close button.
      if (moved > 8 && !event.currentTarget.hasPointerCapture(event.pointerId)) {
        event.currentTarget.setPointerCapture(event.pointerId);
      }
      setOffset(moved);
    },
    onPointerUp: end,
    onPointerCancel: end,
  };

  return { offset, handlers };
}
