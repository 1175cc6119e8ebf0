// The rounds kept on this phone, in IndexedDB (they survive closing the browser).

function store(mode, work) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("tamalou-ref", 1);
    opening.onupgradeneeded = () =>
      opening.result.createObjectStore("pending", { keyPath: "id", autoIncrement: true });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const transaction = db.transaction("pending", mode);
      const request = work(transaction.objectStore("pending"));
      transaction.oncomplete = () => {
        db.close();
        resolve(request.result);
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

export const countKept = () => store("readonly", (kept) => kept.count());
export const allKept = () => store("readonly", (kept) => kept.getAll());
export const putKept = (round) => store("readwrite", (kept) => kept.put(round));
export const dropKept = (id) => store("readwrite", (kept) => kept.delete(id));
