import { useState, type ReactNode } from 'react';

/** Keyset paging: the cursors of the pages seen so far, so "Previous page" goes back without offsets. */
export function useCursorTrail(): { cursor: string | undefined; next: (cursor: string) => void; previous: () => void; reset: () => void; depth: number } {
  const [trail, setTrail] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: trail[trail.length - 1],
    next: (cursor) => setTrail([...trail, cursor]),
    previous: () => setTrail(trail.length > 1 ? trail.slice(0, -1) : trail),
    reset: () => setTrail([undefined]),
    depth: trail.length,
  };
}

export function Pager(props: { depth: number; nextCursor: string | null | undefined; onNext: (cursor: string) => void; onPrevious: () => void }): ReactNode {
  const { nextCursor } = props;
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={props.depth <= 1} onClick={props.onPrevious}>
        Previous page
      </button>
      <button type="button" className="secondary" disabled={nextCursor === null || nextCursor === undefined} onClick={() => nextCursor && props.onNext(nextCursor)}>
        Next page
      </button>
    </div>
  );
}
