import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { showError } from '../lib/errors.ts';

interface PanelRequest<T> {
  /** Loads the record `?edit=<id>` names (a failure, such as an unknown id, shows its message). */
  load: (id: number) => Promise<T>;
  /** Opens the edit panel on the loaded record. */
  onEdit: (record: T) => void;
}

function requestedId(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The side panel the address asks a page to open: `?add=1` (the add panel) or `?edit=<id>`,
 * as the spec's /channel/add, /channel/edit/:id and /user/edit/:id redirects set them.
 * Read once when the page mounts; the parameters are then dropped from the address, so a
 * reload after closing the panel does not open it again. Returns whether to start on "add".
 */
export function usePanelRequest<T>({ load, onEdit }: PanelRequest<T>): { add: boolean } {
  const [params, setParams] = useSearchParams();
  const [request] = useState(() => ({ add: params.get('add') === '1', editId: requestedId(params.get('edit')) }));
  const handlers = useRef({ load, onEdit });
  handlers.current = { load, onEdit };

  useEffect(() => {
    if (!params.has('add') && !params.has('edit')) return;
    const rest = new URLSearchParams(params);
    rest.delete('add');
    rest.delete('edit');
    setParams(rest, { replace: true });
  }, [params, setParams]);

  useEffect(() => {
    if (request.editId === null) return;
    let live = true;
    handlers.current.load(request.editId).then(
      (record) => live && handlers.current.onEdit(record),
      (error: unknown) => live && showError(error),
    );
    return () => {
      live = false;
    };
  }, [request.editId]);

  return { add: request.add };
}
