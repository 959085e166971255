// SPDX-License-Identifier: MIT
#include "session/setup_file.h"

#include "gpu/io/safe_file.h"
#include "gpu/plan/launch_policy.h"

#include "reports/run_options.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>

#include <cmath>
#include <string>
#include <vector>

namespace ss::gui {
namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Run keys, and whether the JSON value is a string (else an integer).
struct RunKey {
    const char* name;
    bool text;
};
constexpr RunKey kRunKeys[] = { { "stencil", true }, { "stencil-file", true }, { "rule", true }, { "dims", false },
    { "size", true }, { "radius", false }, { "variant", true }, { "cf", false }, { "block", true },
    { "precision", true }, { "backend", true }, { "device", false }, { "gpus", false }, { "split", true },
    { "halo", true }, { "overlap", true }, { "init", true }, { "seed", false }, { "depth", false } };

const char* const kGuiKeys[] = { "steps-per-frame", "colormap", "slice", "slice-index", "max-projection", "title",
    "explanation", "version", "lesson-id", "needs", "on-cpu", "cpu-size", "compare", "exercises" };

bool fail(QString* why, const QString& reason) {
    if (why) *why = reason;
    return false;
}

// An integer that JSON doubles hold exactly.
bool integral(const QJsonValue& v, qint64& out) {
    if (!v.isDouble()) return false;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9007199254740992.0) return false;
    out = qint64(d);
    return true;
}

// Text from the file, as a reason quotes it: one line, short (ss::quote_for_message).
QString quoted(const QString& text) {
    return QString::fromStdString(quote_for_message(text.toStdString()));
}

constexpr int kMaxBlockZ = 64; // CUDA's limit on a block's z dimension (gpu/plan/launch_policy.cpp check_block)

QString slice_name(SliceAxis a) {
    return a == SliceAxis::XY ? QStringLiteral("xy") : a == SliceAxis::XZ ? QStringLiteral("xz") : QStringLiteral("yz");
}

} // namespace

QByteArray setup_to_json(const SetupState& s) {
    const StencilConfig& c = s.settings.config;
    QJsonObject o;
    if (!s.title.isEmpty()) o.insert(QStringLiteral("title"), s.title);
    if (!s.explanation.isEmpty()) o.insert(QStringLiteral("explanation"), s.explanation);
    if (c.problem.stencil != StencilKind::Points || !c.problem.shape)
        o.insert(QStringLiteral("stencil"), qs(to_string(c.problem.stencil)));
    else if (c.problem.shape->source.empty()) // box or an EBISU benchmark: its name (box: with dims and radius)
        o.insert(QStringLiteral("stencil"), qs(c.problem.shape->name));
    else // the user's file, by its path: the setup follows edits to the file
        o.insert(QStringLiteral("stencil-file"),
            QFileInfo(QFile::decodeName(c.problem.shape->source.c_str())).absoluteFilePath());
    o.insert(QStringLiteral("rule"), qs(to_string(c.problem.rule)));
    o.insert(QStringLiteral("dims"), c.problem.dims);
    o.insert(QStringLiteral("size"), qs(format_extent(c.problem.size, c.problem.dims)));
    o.insert(QStringLiteral("radius"), c.problem.radius);
    o.insert(QStringLiteral("variant"), qs(to_string(c.policy.variant)));
    const bool automatic = c.policy.variant == Variant::Auto; // it chooses the CF, depth and block (and refuses them)
    if (!automatic) o.insert(QStringLiteral("cf"), c.policy.cf);
    if (!automatic)
        o.insert(QStringLiteral("block"),
            c.policy.heuristic_block ? QStringLiteral("heuristic") : qs(format_block(c.policy.block)));
    o.insert(QStringLiteral("precision"), qs(to_string(c.problem.precision)));
    o.insert(QStringLiteral("backend"), qs(to_string(c.placement.backend)));
    o.insert(QStringLiteral("device"), c.placement.device);
    o.insert(QStringLiteral("gpus"), c.placement.gpus);
    if (c.placement.split != SplitAxis::Slowest) o.insert(QStringLiteral("split"), qs(to_string(c.placement.split)));
    if (c.placement.halo != HaloMode::Auto) o.insert(QStringLiteral("halo"), qs(to_string(c.placement.halo)));
    // Left out, overlap is on where strips are cut along the slowest axis and off elsewhere (the parser's rule).
    if (c.placement.overlap != splits_slowest(c))
        o.insert(QStringLiteral("overlap"), c.placement.overlap ? QStringLiteral("on") : QStringLiteral("off"));
    o.insert(QStringLiteral("init"), qs(to_string(s.settings.config.problem.initial)));
    // A JSON number holds integers exactly up to 2^53 only: larger seeds are written as decimal text.
    const std::uint64_t seed = s.settings.config.problem.seed;
    if (seed <= (std::uint64_t(1) << 53))
        o.insert(QStringLiteral("seed"), double(seed));
    else
        o.insert(QStringLiteral("seed"), QString::number(seed));
    // A depth on another variant is kept as read (the run refuses it with the reason), so a file round-trips.
    if (!automatic && (c.policy.variant == Variant::Temporal || !depth_fits_variant(c.policy)))
        o.insert(QStringLiteral("depth"), c.policy.depth);
    o.insert(QStringLiteral("steps-per-frame"), s.steps_per_frame);
    if (s.colormap) o.insert(QStringLiteral("colormap"), qs(to_string(*s.colormap)));
    if (s.slice) {
        o.insert(QStringLiteral("slice"), slice_name(s.slice->axis));
        o.insert(QStringLiteral("slice-index"), s.slice->index);
        o.insert(QStringLiteral("max-projection"), s.slice->max_projection);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

bool setup_from_json(const QByteArray& json, const RunSettings& current, SetupState& out, QString* why) {
    if (json.size() > kMaxSetupBytes)
        return fail(why, QStringLiteral("the setup is larger than %1 bytes").arg(kMaxSetupBytes));
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return fail(why, QStringLiteral("not valid JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject()) return fail(why, QStringLiteral("not a setup: the JSON is not an object"));
    const QJsonObject o = doc.object();

    // Unknown keys are refused: a misspelt key would otherwise be silently ignored.
    for (auto it = o.begin(); it != o.end(); ++it) {
        bool known = false;
        for (const RunKey& k : kRunKeys) known = known || it.key() == QLatin1String(k.name);
        for (const char* k : kGuiKeys) known = known || it.key() == QLatin1String(k);
        if (!known) return fail(why, QStringLiteral("unknown key \"%1\"").arg(quoted(it.key())));
    }

    // Run keys -> the CLI's argument list -> parse_run_options.
    std::vector<std::string> args;
    for (const RunKey& k : kRunKeys) {
        const QString key = QLatin1String(k.name);
        if (!o.contains(key)) continue;
        const QJsonValue v = o.value(key);
        std::string value;
        qint64 n = 0;
        if (k.text) {
            if (!v.isString()) return fail(why, QStringLiteral("\"%1\" must be a string").arg(key));
            value = v.toString().toStdString();
        } else if (key == QLatin1String("seed") && v.isString()) { // beyond 2^53 (see setup_to_json)
            value = v.toString().toStdString();
        } else {
            if (!integral(v, n)) return fail(why, QStringLiteral("\"%1\" must be an integer").arg(key));
            value = std::to_string(n);
        }
        args.push_back("--" + std::string(k.name) + "=" + value);
    }
    // A lesson's field may be too large for the host: on the CPU backend it runs at "cpu-size".
    const QJsonValue cpu_size = o.value(QStringLiteral("cpu-size"));
    if (!cpu_size.isUndefined()) {
        if (!cpu_size.isString()) return fail(why, QStringLiteral("\"cpu-size\" must be a string"));
        if (current.config.placement.backend == Backend::Cpu) {
            std::erase_if(args, [](const std::string& a) { return a.starts_with("--size="); });
            args.push_back("--size=" + cpu_size.toString().toStdString());
        }
    }
    RunOptions run;
    run.config.problem.initial = InitialCondition::Gaussian; // the window's default
    run.config.placement.backend = current.config.placement.backend;
    run.config.placement.device = current.config.placement.device;
    run.config.placement.gpus = current.config.placement.gpus;
    run.config.placement.strips_per_device = current.config.placement.strips_per_device; // the testing hook stays
    if (const Status s = parse_run_options(args, run); !s) return fail(why, QString::fromStdString(s.reason));
    // A block past CUDA's launch limits no GPU could launch, and the window's block boxes (1024, 1024, 64) would
    // show another: refused whatever the backend, as stencilscope-cli refuses it. The thesis' rules per variant
    // stay the run's (Session::apply_setup): lessons compare refused blocks on purpose.
    if (const BlockDims& b = run.config.policy.block; !run.config.policy.heuristic_block) {
        const DeviceInfo largest_gpu = largest_gpu_limits();
        const qint64 threads = qint64(b.x) * b.y * b.z; // wide: the dims are checked one by one only
        if (threads > largest_gpu.max_threads_per_block || b.z > kMaxBlockZ)
            return fail(why,
                QStringLiteral(
                    "no GPU could launch this block: block %1 has %2 threads and Bz %3; CUDA allows %4 threads "
                    "and Bz <= %5")
                    .arg(qs(format_block(b)))
                    .arg(threads)
                    .arg(b.z)
                    .arg(largest_gpu.max_threads_per_block)
                    .arg(kMaxBlockZ));
    }

    SetupState next;
    next.settings.config = run.config;
    next.settings.config.problem.initial = run.config.problem.initial;
    next.settings.config.problem.seed = run.config.problem.seed;
    const StencilConfig& c = next.settings.config;

    auto text_of = [&](const char* key, QString& value) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined()) return true;
        if (!v.isString()) return fail(why, QStringLiteral("\"%1\" must be a string").arg(QLatin1String(key)));
        value = v.toString();
        return true;
    };
    if (!text_of("title", next.title) || !text_of("explanation", next.explanation)
        || !text_of("lesson-id", next.lesson_id) || !text_of("on-cpu", next.on_cpu))
        return false;
    if (const QJsonValue needs = o.value(QStringLiteral("needs")); !needs.isUndefined()) {
        const QString expected = QStringLiteral("\"needs\" must be a list of \"gpu\", \"two-gpus\" and \"counters\"");
        if (!needs.isArray()) return fail(why, expected);
        for (const QJsonValue& n : needs.toArray()) {
            const QString need = n.toString();
            if (need != QLatin1String("gpu") && need != QLatin1String("two-gpus") && need != QLatin1String("counters"))
                return fail(why, expected);
            next.needs << need;
        }
    }
    // The runs a lesson compares (bench/record_lessons.sh records them, the gpu test checks their claims).
    if (const QJsonValue compare = o.value(QStringLiteral("compare")); !compare.isUndefined()) {
        if (!compare.isArray()) return fail(why, QStringLiteral("\"compare\" must be a list of runs"));
        for (const QJsonValue& run_value : compare.toArray())
            if (!run_value.isObject() || !run_value.toObject().value(QStringLiteral("label")).isString())
                return fail(why, QStringLiteral("every run in \"compare\" must be an object with a \"label\""));
    }
    // Predict exercises over the compared runs (session/lesson_exercises.h reads and checks them whole).
    if (const QJsonValue exercises = o.value(QStringLiteral("exercises"));
        !exercises.isUndefined() && !exercises.isArray())
        return fail(why, QStringLiteral("\"exercises\" must be a list of questions"));
    if (o.contains(QStringLiteral("version"))) {
        qint64 version = 0;
        if (!integral(o.value(QStringLiteral("version")), version) || version != 1)
            return fail(why, QStringLiteral("\"version\" must be 1"));
    }
    if (o.contains(QStringLiteral("steps-per-frame"))) {
        qint64 n = 0;
        if (!integral(o.value(QStringLiteral("steps-per-frame")), n) || n < 0 || n > kMaxStepsPerFrame)
            return fail(why, QStringLiteral("\"steps-per-frame\" must be an integer 0..%1").arg(kMaxStepsPerFrame));
        next.steps_per_frame = int(n);
    }
    QString map;
    if (!text_of("colormap", map)) return false;
    if (!map.isNull()) {
        const auto kind = parse_colormap(map.toStdString());
        if (!kind)
            return fail(why,
                QStringLiteral("invalid \"colormap\" \"%1\": expected viridis, inferno, coolwarm or grayscale")
                    .arg(quoted(map)));
        next.colormap = *kind;
    }
    QString axis;
    if (!text_of("slice", axis)) return false;
    const bool has_slice
        = !axis.isNull() || o.contains(QStringLiteral("slice-index")) || o.contains(QStringLiteral("max-projection"));
    if (has_slice) {
        SliceSelection slice;
        if (axis == QLatin1String("xz"))
            slice.axis = SliceAxis::XZ;
        else if (axis == QLatin1String("yz"))
            slice.axis = SliceAxis::YZ;
        else if (!axis.isNull() && axis != QLatin1String("xy"))
            return fail(why, QStringLiteral("invalid \"slice\" \"%1\": expected xy, xz or yz").arg(quoted(axis)));
        const int planes = c.problem.dims == 2 ? 1
            : slice.axis == SliceAxis::XY      ? c.problem.size.nz
            : slice.axis == SliceAxis::XZ      ? c.problem.size.ny
                                               : c.problem.size.nx;
        if (o.contains(QStringLiteral("slice-index"))) {
            qint64 n = 0;
            if (!integral(o.value(QStringLiteral("slice-index")), n) || n < 0 || n >= planes)
                return fail(why, QStringLiteral("\"slice-index\" must be an integer 0..%1").arg(planes - 1));
            slice.index = int(n);
        } else {
            slice.index = planes / 2;
        }
        const QJsonValue projection = o.value(QStringLiteral("max-projection"));
        if (!projection.isUndefined()) {
            if (!projection.isBool()) return fail(why, QStringLiteral("\"max-projection\" must be true or false"));
            slice.max_projection = projection.toBool();
        }
        next.slice = slice;
    }
    out = std::move(next);
    return true;
}

bool read_setup_file(const QString& path, const RunSettings& current, SetupState& out, QString* why) {
    if (path.startsWith(QLatin1Char(':'))) { // a lesson or preset in the program's own resources
        QFile resource(path);
        if (!resource.open(QIODevice::ReadOnly))
            return fail(why, QStringLiteral("cannot read %1: %2").arg(path, resource.errorString()));
        return setup_from_json(resource.read(kMaxSetupBytes + 1), current, out, why);
    }
    // Type and size first: a FIFO or a device is refused, not waited on (QFile would block on a FIFO).
    std::string bytes;
    if (Status s = read_regular_file(QFile::encodeName(path).toStdString(), kMaxSetupBytes, bytes); !s)
        return fail(why, QString::fromStdString(s.reason));
    return setup_from_json(QByteArray(bytes.data(), qsizetype(bytes.size())), current, out, why);
}

bool write_setup_file(const QString& path, const SetupState& s, QString* why) {
    const QByteArray json = setup_to_json(s);
    if (Status st = replace_file(QFile::encodeName(path).toStdString(), json.toStdString(), "setup file"); !st)
        return fail(why, QString::fromStdString(st.reason));
    return true;
}

} // namespace ss::gui
