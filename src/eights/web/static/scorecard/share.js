// Sharing the sheet: its read-only link, as a link and a QR code, and its edit link for whoever keeps score.

import { $ } from "../dom.js";
import { renderSVG } from "../vendor/uqr.js";
import { state } from "./state.js";

function openShare() {
  const { code, token } = state;
  const link = `${location.origin}/s/${code}`;
  const view = $("view-link");
  view.textContent = link;
  view.href = link;
  $("view-qr").src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(link, { ecc: "M", border: 2 }))}`;
  $("copied").textContent = "";
  $("edit-share").hidden = !token;
  if (token) {
    const editLink = `${link}#e=${token}`;
    $("edit-link").textContent = editLink;
    $("edit-link").href = editLink;
  }
  $("share-dialog").showModal();
}

/** What the Share button and the share dialog's buttons do. */
export function setUpShare() {
  $("share").addEventListener("click", openShare);
  $("share-close").addEventListener("click", () => $("share-dialog").close());
  $("copy-view").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("view-link").href);
      $("copied").textContent = "Copied.";
    } catch {
      $("copied").textContent = "Copying is blocked here: select the link instead.";
    }
  });
}
