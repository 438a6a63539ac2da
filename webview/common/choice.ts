// A <select> that acts on an explicit choice. Chromium fires 'change' for every arrow key on a
// closed select, so a select that acts on 'change' runs its first entry on the first Arrow Down
// (the Export menu opened a save dialog) and cannot be browsed. Here a choice counts when it is
// made with the mouse or in the open list (Alt+Down, Space), or with Enter after browsing with the
// keys; leaving the select after browsing puts the committed value back.
const BROWSE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

export function onChoice(select: HTMLSelectElement, commit: (value: string) => void): void {
  let browsing = false;
  let committed = select.value;
  const run = () => {
    browsing = false;
    commit(select.value);
    committed = select.value; // what the callback left (the Export menu shows "Export…" again)
  };
  // Code may set the value (a refill on focus, a re-render): that is the committed one.
  select.addEventListener('focus', () => { if (!browsing) committed = select.value; });
  select.addEventListener('keydown', (event) => {
    const opensList = event.key === ' ' || event.key === 'F4' || (event.altKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp'));
    if (opensList) {
      browsing = false; // a choice in the open list is explicit
    } else if (BROWSE_KEYS.has(event.key) || (event.key.length === 1 && !event.ctrlKey && !event.metaKey)) {
      browsing = true;
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (browsing || select.value !== committed) run();
    } else if (event.key === 'Escape' && browsing) {
      select.value = committed;
      browsing = false;
    }
  });
  select.addEventListener('mousedown', () => { browsing = false; });
  select.addEventListener('change', () => {
    if (!browsing) run();
  });
  select.addEventListener('blur', () => {
    if (browsing && select.value !== committed) select.value = committed;
    browsing = false;
  });
}

