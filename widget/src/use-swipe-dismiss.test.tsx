// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SWIPE_DISMISS_PX, useSwipeDismiss } from './use-swipe-dismiss';

function Card({ onDismiss }: { onDismiss: () => void }) {
  const { offset, handlers } = useSwipeDismiss(onDismiss);
  return (
    <div data-testid="card" data-offset={offset} {...handlers}>
      toast
    </div>
  );
}

// jsdom has neither PointerEvent nor pointer capture: a MouseEvent with a pointerId stands in.
beforeAll(() => {
  class PointerEventStandIn extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 0;
    }
  }
  vi.stubGlobal('PointerEvent', PointerEventStandIn);
  HTMLElement.prototype.hasPointerCapture = () => false;
  HTMLElement.prototype.setPointerCapture = () => undefined;
});
afterEach(cleanup);

function swipe(card: HTMLElement, dx: number) {
  fireEvent.pointerDown(card, { clientX: 100, pointerId: 1 });
  fireEvent.pointerMove(card, { clientX: 100 + dx, pointerId: 1 });
  fireEvent.pointerUp(card, { clientX: 100 + dx, pointerId: 1 });
}

describe('useSwipeDismiss', () => {
  it('dismisses a swipe right of at least 50 px', () => {
    const onDismiss = vi.fn();
    render(<Card onDismiss={onDismiss} />);
    swipe(screen.getByTestId('card'), SWIPE_DISMISS_PX);
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('springs back from a shorter swipe, and ignores a swipe left', () => {
    const onDismiss = vi.fn();
    render(<Card onDismiss={onDismiss} />);
    const card = screen.getByTestId('card');
    swipe(card, SWIPE_DISMISS_PX - 1);
    expect(card.dataset.offset).toBe('0');
    swipe(card, -200);
    expect(onDismiss).not.toHaveBeenCalled();
  });

  it('follows the pointer while it moves', () => {
    render(<Card onDismiss={() => undefined} />);
    const card = screen.getByTestId('card');
    fireEvent.pointerDown(card, { clientX: 10, pointerId: 1 });
    fireEvent.pointerMove(card, { clientX: 40, pointerId: 1 });
    expect(card.dataset.offset).toBe('30');
  });
});
