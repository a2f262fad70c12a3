// @vitest-environment jsdom
import '../../../test/dom';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProofView } from '#shared/proof';
import { ProofGallery } from './ProofGallery';

const view = (over: Partial<ProofView> = {}): ProofView => ({
  files: [],
  conditions: [],
  settings: { photosBeforeLoaded: true, photosBeforeCompleted: false, checklist: [] },
  room: 60,
  awaiting: [],
  reportUrl: null,
  ...over,
});

describe('the photos still on the driver’s phone', () => {
  it('are listed under their stage until they arrive, and nothing is said when none are awaited', () => {
    const { unmount } = render(
      <ProofGallery
        proof={view({
          awaiting: [
            { stage: 'pickup', slot: 'rear', promisedAt: '2026-06-10T12:00:00.000Z' },
            { stage: 'pickup', slot: 'left', promisedAt: '2026-06-10T12:00:00.000Z' },
          ],
        })}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Pickup' })).toBeTruthy();
    expect(screen.getByText('Still to upload from the driver’s phone: Rear, Left side')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Drop-off' })).toBeNull();
    unmount();
    render(<ProofGallery proof={view()} />);
    expect(screen.queryByText(/Still to upload/)).toBeNull();
  });
});
