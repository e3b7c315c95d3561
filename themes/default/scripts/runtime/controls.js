// A control on the page, whatever its kind: the index of the value it shows (as
// State.to counts them), the names of its values (as deep links name them), and
// how to show another value. Buttons are a group with a roving tab stop, a toggle
// is one button (off = value 0, on = value 1), a slider a native range input.
export function Control(element) {
  this.element = element;
  this.kind = element.getAttribute("data-kind") || "buttons";
  this.name = element.getAttribute("data-name");
  if (this.kind === "slider") {
    this.input = element.querySelector('input[type="range"]');
    this.names = JSON.parse(this.input.getAttribute("data-values"));
    this.texts = JSON.parse(this.input.getAttribute("data-texts"));
    this.output = element.querySelector("[data-slider-value]");
  } else if (this.kind === "toggle") {
    this.button = element.querySelector("button[data-toggle]");
    this.names = ["false", "true"];
  } else {
    this.buttons = Array.prototype.slice.call(element.querySelectorAll("button[data-index]"));
    this.names = this.buttons.map(function (b) { return b.getAttribute("data-value"); });
  }
  // The default state's choice, as the markup wrote it (a slider's thumb may have moved
  // before the runtime started): deep links return to it.
  this.initial = this.input ? Number(this.input.defaultValue) : this.index();
}

Control.prototype.index = function () {
  if (this.input) return Number(this.input.value);
  if (this.button) return this.button.getAttribute("aria-pressed") === "true" ? 1 : 0;
  for (var i = 0; i < this.buttons.length; i++) {
    if (this.buttons[i].getAttribute("aria-pressed") === "true") return i;
  }
  return -1;
};

Control.prototype.show = function (index) {
  if (this.input) {
    if (Number(this.input.value) !== index) this.input.value = String(index);
    this.input.setAttribute("aria-valuetext", this.texts[index]);
    if (this.output.textContent !== this.texts[index]) this.output.textContent = this.texts[index];
  } else if (this.button) {
    this.button.setAttribute("aria-pressed", index === 1 ? "true" : "false");
  } else {
    this.buttons.forEach(function (other, i) {
      other.setAttribute("aria-pressed", i === index ? "true" : "false");
      other.tabIndex = i === index ? 0 : -1;
    });
  }
};
