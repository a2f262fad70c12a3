import { describe, expect, it } from 'vitest';
import { withMainSection, withSection } from './sections';

const DOC =
  '# Benchmarks\n\nold header\n\n## Machine\n\nold machine\n\n## Results\n\nold results\n\n## Backup under load\n\nbackup\n\n## Side by side with e4789ff\n\nagainst\n';

describe('docs/benchmarks.md sections', () => {
  it('a main run replaces the header, Machine and Results, and keeps every other section', () => {
    const main = '# Benchmarks\n\nnew header\n\n## Machine\n\nnew machine\n\n## Results\n\nnew results\n';
    expect(withMainSection(DOC, main)).toBe(
      '# Benchmarks\n\nnew header\n\n## Machine\n\nnew machine\n\n## Results\n\nnew results\n\n## Backup under load\n\nbackup\n\n## Side by side with e4789ff\n\nagainst\n',
    );
    expect(withMainSection('', main)).toBe(main);
  });

  it('another run replaces its own section in place, or adds it at the end', () => {
    expect(withSection(DOC, '## Backup under load\n\nnew backup\n')).toBe(DOC.replace('\nbackup\n', '\nnew backup\n'));
    expect(withSection(DOC, '## Bookings\n\nbookings\n')).toBe(`${DOC}\n## Bookings\n\nbookings\n`);
  });
});
