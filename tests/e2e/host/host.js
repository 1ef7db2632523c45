// The listener a host page adds so that embedded figures take the height they report
// (the README's "Embed a figure" section shows this same code).
addEventListener("message", (event) => {
  if (!event.data || event.data.context !== "iframe.resize") return;
  for (const frame of document.querySelectorAll("iframe")) {
    if (frame.contentWindow === event.source) {
      frame.style.height = `${Math.ceil(event.data.height)}px`;
      frame.dataset.reportedHeight = String(event.data.height);
    }
  }
});
