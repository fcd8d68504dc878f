import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from './api';

/**
 * A list the page reads from the API on first show and again after each change it makes. `reload`
 * resolves once the new list is in state, so a change's notice can wait for it and the page never
 * says "revoked" above a list that still says "active". A failed read lands in `error`.
 */
export function useReloadable<Answer, T>(path: string, pick: (answer: Answer) => T): { value: T | undefined; error: unknown; setError: (error: unknown) => void; reload: () => Promise<void> } {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<unknown>();
  // The latest pick, without making every render a new reload.
  const picked = useRef(pick);
  picked.current = pick;
  const reload = useCallback(
    (): Promise<void> =>
      api<Answer>('GET', path)
        .then((answer) => setValue(picked.current(answer)))
        .catch(setError),
    [path],
  );
  useEffect(() => {
    void reload();
  }, [reload]);
  return { value, error, setError, reload };
}
