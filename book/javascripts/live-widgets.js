/*
 * The stored widgets of a page, drawn without the Jupyter widget manager.
 *
 * ipywidgets' HTML manager (@jupyter-widgets/html-manager) is a 3.6 MB bundle whose start-up took
 * 1-2 s of the page's main thread, in tasks up to 0.7 s long, before a stored widget showed. The
 * book's widgets use fifteen controls of ipywidgets 8 and no custom ones, so this script draws
 * those itself, from the state the notebooks stored, as the same markup and classes ipywidgets
 * draws (its stylesheet, cut to these controls, is stylesheets/jupyter-widgets.css). Each model
 * keeps the small part of the widget manager's model API that live-calculators.js uses: get, set,
 * on("change"), changedAttributes and send. A model this script does not know stops the page's
 * widgets with an error naming it (the tests build every page), never a silent blank.
 *
 * window.rulesLibWidgets = { models(state, known), view(model) }: the models of a stored
 * "application/vnd.jupyter.widget-state+json" (references between models resolved, also to the
 * `known` models of a part read before: a page's state comes in parts, tools/mkdocs_hooks.py), and a
 * model's element, kept in step with the model.
 */
(function () {
  "use strict";
  const REFERENCE = "IPY_MODEL_";
  // the one word this script adds (a copy button's), in the page's language (<html lang>)
  const COPIED = document.documentElement.lang === "ja" ? " ✓ コピーしました" : " ✓ copied";
  let nextId = 1;

  class Model {
    constructor(modelId, name, state) {
      this.model_id = modelId;
      this.name = name;
      this.attributes = state;
      this.listeners = [];
      this.changed = null;
      this.send = () => {}; // a button before its calculator is live: nothing to tell
    }

    get(key) {
      return this.attributes[key];
    }

    // change the given attributes; listeners hear once, with changedAttributes() naming what differed
    set(changes) {
      const changed = {};
      for (const [key, value] of Object.entries(changes)) {
        if (JSON.stringify(this.attributes[key]) !== JSON.stringify(value)) changed[key] = value;
      }
      if (!Object.keys(changed).length) return;
      // the page declares the Japanese font's faces of its own text only (japanese-font.js)
      if (window.rulesLibJapaneseFont) window.rulesLibJapaneseFont.cover(changed);
      Object.assign(this.attributes, changed);
      this.changed = changed;
      try {
        this.listeners.forEach((listener) => listener(this));
      } finally {
        this.changed = null;
      }
    }

    changedAttributes() {
      return this.changed;
    }

    on(event, listener) {
      if (event === "change") this.listeners.push(listener);
    }
  }

  // every model of the stored state, with its "IPY_MODEL_…" references (children, layout, style) as
  // models: its own, or those of `known` (a Map by id: the models of a part of the page's state read before)
  function models(stored, known = new Map()) {
    const byId = new Map();
    for (const [modelId, { model_name: name, state }] of Object.entries(stored.state)) {
      byId.set(modelId, new Model(modelId, name, { ...state, _model_name: name }));
    }
    const resolve = (value) => {
      if (typeof value === "string" && value.startsWith(REFERENCE)) {
        const found = byId.get(value.slice(REFERENCE.length)) || known.get(value.slice(REFERENCE.length));
        if (!found) throw new Error(`the stored widget state refers to a missing model ${value}`);
        return found;
      }
      return Array.isArray(value) ? value.map(resolve) : value;
    };
    for (const model of byId.values()) {
      for (const key of ["children", "layout", "style"]) {
        if (key in model.attributes) model.attributes[key] = resolve(model.attributes[key]);
      }
    }
    return [...byId.values()];
  }

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  // the Layout model's CSS on the widget's element (width, max_width, flex_flow, …)
  function applyLayout(model, target) {
    const layout = model.get("layout");
    if (!layout) return;
    for (const [key, value] of Object.entries(layout.attributes)) {
      if (key.startsWith("_") || value === null || value === undefined) continue;
      target.style.setProperty(key.replace(/_/g, "-"), value);
    }
  }

  function applyCommon(model, target) {
    for (const domClass of model.get("_dom_classes") || []) target.classList.add(domClass);
    const tooltip = model.get("tooltip");
    if (tooltip) target.title = tooltip;
    applyLayout(model, target);
  }

  // a form row: its description as a label, then the control (ipywidgets' DescriptionView)
  function describedRow(model, kinds, control) {
    const row = element("div", `jupyter-widgets widget-inline-hbox ${kinds}`);
    const label = element("label", "widget-label");
    const id = `rules-lib-widget-${nextId++}`;
    if (control) {
      control.id = id;
      label.htmlFor = id;
    }
    const width = (model.get("style") && model.get("style").get("description_width")) || "";
    if (width) label.style.width = width;
    const describe = () => {
      const description = model.get("description") || "";
      if (model.get("description_allow_html")) label.replaceChildren(withoutHandlers(description));
      else label.textContent = description;
      label.style.display = description ? "" : "none";
    };
    describe();
    row.append(label);
    applyCommon(model, row);
    return { row, describe };
  }

  function watch(model, update) {
    update();
    model.on("change", update);
  }

  // A control that disables itself while it has the focus (a battle's button, once pressed) would
  // drop the keyboard's focus to the page's top: the focus moves on to the next enabled control of
  // the same calculator, once the answer's other changes are drawn (they may enable the next one)
  function setDisabled(control, disabled) {
    const hadFocus = disabled && !control.disabled && document.activeElement === control;
    control.disabled = disabled;
    if (hadFocus) setTimeout(() => focusNextEnabled(control), 0);
  }

  const FOCUSABLE = "button, input, select, textarea";

  function focusNextEnabled(control) {
    const now = document.activeElement;
    if (now && now !== document.body && now !== control) return; // the reader moved on
    if (!control.disabled && control.isConnected) return control.focus();
    const calculator = control.closest(".widget-subarea") || document.body;
    const usable = [...calculator.querySelectorAll(FOCUSABLE)].filter(
      (el) => !el.disabled && el.type !== "hidden" && el.getClientRects().length > 0);
    const after = usable.find((el) => control.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    const next = after || usable[0];
    if (next) next.focus();
  }

  function options(select, labels) {
    const current = [...select.options].map((option) => option.value);
    if (JSON.stringify(current) === JSON.stringify(labels)) return;
    select.replaceChildren(...labels.map((label) => {
      const option = element("option", "", label);
      option.value = label;
      return option;
    }));
  }

  // An HTML widget's markup as nodes, its inline event handlers (onclick="…") left out: the site's
  // policy runs no inline handler (tools/site_policy.py), and the browser reports one as a refused
  // script as soon as it is parsed, even in a <template> or a DOMParser's document, so they are cut
  // from the text. A start tag is read attribute by attribute, each quoted value whole, so a handler
  // is never looked for inside another attribute's value. The one the book's widgets carry, the
  // sheet builder's copy buttons (rules_lib/widgets/sheets.py), is done by copyClicked instead.
  const START_TAG = /<[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;
  const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
  function withoutHandlers(markup) {
    const template = document.createElement("template");
    template.innerHTML = markup.replace(START_TAG, (tag) =>
      tag.replace(ATTRIBUTE, (attribute, name) => (/^on/i.test(name) ? "" : attribute)));
    return template.content;
  }

  // a sheet's copy button: its sheet's text of the class it names, on the clipboard, as its inline
  // handler does in Jupyter
  function copyClicked(event) {
    const button = event.target.closest && event.target.closest("button.rules-lib-copy[data-copies]");
    const copied = button && button.closest(".rules-lib-sheet")?.querySelector(`.${CSS.escape(button.dataset.copies)}`);
    if (!copied || button.disabled) return;
    button.dataset.label = button.dataset.label || button.textContent;
    navigator.clipboard.writeText(copied.textContent).then(() => {
      button.textContent = `${button.dataset.label}${COPIED}`;
    });
  }
  document.addEventListener("click", copyClicked);

  const VIEWS = {
    VBoxModel: (model) => box(model, "widget-vbox"),
    HBoxModel: (model) => box(model, "widget-hbox"),

    HTMLModel(model) {
      const { row, describe } = describedRow(model, "widget-html");
      const content = element("div", "widget-html-content");
      row.append(content);
      watch(model, () => {
        describe();
        content.replaceChildren(withoutHandlers(model.get("value") || ""));
      });
      return row;
    },

    TextModel: (model) => textInput(model, "text", "widget-text"),
    IntTextModel: (model) => textInput(model, "number", "widget-text"),
    BoundedIntTextModel: (model) => textInput(model, "number", "widget-text"),

    TextareaModel(model) {
      const area = element("textarea");
      const { row, describe } = describedRow(model, "widget-textarea", area);
      row.append(area);
      area.addEventListener("change", () => model.set({ value: area.value }));
      watch(model, () => {
        describe();
        if (area.value !== model.get("value")) area.value = model.get("value") || "";
        area.rows = model.get("rows") || 2;
        area.placeholder = model.get("placeholder") || "";
        setDisabled(area, Boolean(model.get("disabled")));
      });
      return row;
    },

    CheckboxModel(model) {
      const { row } = describedRow(model, "widget-checkbox");
      row.querySelector(".widget-label").style.display = "none"; // the description sits beside the box
      const wrapper = element("label", "widget-label-basic");
      const box = element("input");
      box.type = "checkbox";
      const text = element("span");
      wrapper.append(box, text);
      row.append(wrapper);
      box.addEventListener("change", () => model.set({ value: box.checked }));
      watch(model, () => {
        box.checked = Boolean(model.get("value"));
        setDisabled(box, Boolean(model.get("disabled")));
        text.textContent = model.get("description") || "";
        text.title = text.textContent;
      });
      return row;
    },

    DropdownModel(model) {
      const select = element("select");
      const { row, describe } = describedRow(model, "widget-dropdown", select);
      row.append(select);
      select.addEventListener("change", () => model.set({ index: select.selectedIndex }));
      watch(model, () => {
        describe();
        options(select, model.get("_options_labels") || []);
        select.selectedIndex = model.get("index") === null ? -1 : model.get("index");
        setDisabled(select, Boolean(model.get("disabled")));
      });
      return row;
    },

    SelectMultipleModel(model) {
      const select = element("select");
      select.multiple = true;
      const { row, describe } = describedRow(model, "widget-select widget-select-multiple", select);
      row.append(select);
      select.addEventListener("change", () => {
        model.set({ index: [...select.options].flatMap((option, at) => (option.selected ? [at] : [])) });
      });
      watch(model, () => {
        describe();
        options(select, model.get("_options_labels") || []);
        const chosen = new Set(model.get("index") || []);
        [...select.options].forEach((option, at) => (option.selected = chosen.has(at)));
        select.size = model.get("rows") || 5;
        setDisabled(select, Boolean(model.get("disabled")));
      });
      return row;
    },

    ToggleButtonsModel(model) {
      const { row, describe } = describedRow(model, "widget-toggle-buttons");
      row.classList.remove("widget-inline-hbox", "jupyter-widgets");
      const buttons = element("div");
      row.append(buttons);
      watch(model, () => {
        describe();
        const labels = model.get("_options_labels") || [];
        if (buttons.children.length !== labels.length ||
            labels.some((label, at) => buttons.children[at].textContent !== label)) {
          buttons.replaceChildren(...labels.map((label, at) => {
            const button = element("button", "widget-toggle-button jupyter-button", label);
            button.type = "button";
            button.value = String(at);
            const width = model.get("style") && model.get("style").get("button_width");
            if (width) button.style.width = width;
            button.addEventListener("click", () => model.set({ index: at }));
            return button;
          }));
        }
        [...buttons.children].forEach((button, at) => {
          button.classList.toggle("mod-active", at === model.get("index"));
          button.setAttribute("aria-pressed", String(at === model.get("index"))); // a screen reader hears the choice
          setDisabled(button, Boolean(model.get("disabled")));
          button.title = (model.get("tooltips") || [])[at] || "";
        });
      });
      return row;
    },

    IntSliderModel(model) {
      const range = element("input");
      range.type = "range";
      const { row, describe } = describedRow(model, "widget-slider widget-hslider", range);
      const container = element("div", "slider-container");
      const readout = element("div", "widget-readout");
      container.append(range);
      row.append(container, readout);
      const take = () => model.set({ value: Number(range.value) });
      range.addEventListener("input", () => {
        readout.textContent = range.value;
        if (model.get("continuous_update")) take();
      });
      range.addEventListener("change", take);
      watch(model, () => {
        describe();
        range.min = model.get("min");
        range.max = model.get("max");
        range.step = model.get("step");
        range.value = model.get("value");
        setDisabled(range, Boolean(model.get("disabled")));
        readout.textContent = String(model.get("value"));
        readout.style.display = model.get("readout") === false ? "none" : "";
      });
      return row;
    },

    ButtonModel(model) {
      const button = element("button", "jupyter-widgets jupyter-button widget-button");
      applyCommon(model, button);
      button.addEventListener("click", () => model.send({ event: "click" }));
      watch(model, () => {
        button.textContent = model.get("description") || "";
        setDisabled(button, Boolean(model.get("disabled")));
        const style = model.get("button_style");
        button.className = button.className.replace(/\bmod-\w+/g, "").trim();
        if (style) button.classList.add(`mod-${style}`);
      });
      return button;
    },
  };

  function box(model, kind) {
    const container = element("div", `jupyter-widgets widget-container widget-box ${kind}`);
    applyCommon(model, container);
    container.append(...(model.get("children") || []).map(view));
    return container;
  }

  // a text or number input: ipywidgets sends a typed value on Enter or when the input loses focus
  // (continuous_update false), or on each keystroke; a number outside min..max is clamped
  function textInput(model, type, kind) {
    const input = element("input");
    input.type = type;
    if (type === "text") input.className = "widget-input";
    const { row, describe } = describedRow(model, kind, input);
    row.append(input);
    const take = () => {
      if (type === "text") return model.set({ value: input.value });
      const typed = Number.parseInt(input.value, 10);
      if (Number.isNaN(typed)) {
        input.value = model.get("value");
        return;
      }
      const [min, max] = [model.get("min"), model.get("max")];
      const clamped = Math.min(max ?? typed, Math.max(min ?? typed, typed));
      input.value = clamped;
      model.set({ value: clamped });
    };
    input.addEventListener("change", take);
    input.addEventListener("input", () => {
      if (model.get("continuous_update") && type === "text") take();
    });
    watch(model, () => {
      describe();
      if (String(input.value) !== String(model.get("value") ?? "")) input.value = model.get("value") ?? "";
      input.placeholder = model.get("placeholder") || "";
      setDisabled(input, Boolean(model.get("disabled")));
      if (type === "number") {
        for (const key of ["min", "max", "step"]) {
          if (model.get(key) !== undefined && model.get(key) !== null) input[key] = model.get(key);
        }
      }
    });
    return row;
  }

  function view(model) {
    const draw = VIEWS[model.name];
    if (!draw) throw new Error(`the page's widgets include a ${model.name}, which the book's widget views do not draw`);
    return draw(model);
  }

  window.rulesLibWidgets = { models, view };
})();
