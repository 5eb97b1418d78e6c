// A learner's edits kept in this browser (localStorage), one entry per lesson and snippet or exercise, so that a
// reload brings them back. Storage may be blocked (private modes, policies) or full: then nothing is kept and the
// page works as before, it only forgets the edits on reload.

const lesson = document.querySelector('[data-lesson]')?.dataset.lesson || location.pathname;

/** The drafts of one kind of widget ("snippet", "exercise") with id `id`. */
export function draftOf(kind, id) {
  const key = `exactly-once-lab:draft:${lesson}:${kind}:${id}`;
  return {
    /** The saved value, or null when there is none or it cannot be read. */
    load() {
      try {
        const text = localStorage.getItem(key);
        return text === null ? null : JSON.parse(text);
      } catch {
        return null;
      }
    },
    save(value) {
      try {
        localStorage.setItem(key, JSON.stringify(value));
      } catch {
        // Blocked or full: the edit stays in the editor, it is only not kept across a reload.
      }
    },
    remove() {
      try {
        localStorage.removeItem(key);
      } catch {
        // Blocked: there is nothing kept to remove.
      }
    },
  };
}
