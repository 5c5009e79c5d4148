/// Words and phrases that messenger text is assembled from: Latin, Cyrillic, CJK and emoji,
/// so payloads have the byte mix (1-, 2-, 3- and 4-byte UTF-8) of a real chat app's.
enum TextCorpus {
    static let latin = [
        "ok", "yes", "no", "thanks", "see", "you", "tomorrow", "at", "the", "station", "where", "are",
        "running", "late", "call", "me", "when", "free", "photos", "from", "yesterday", "meeting",
        "moved", "to", "3pm", "can", "someone", "pick", "up", "kids", "hola", "que", "tal", "vamos",
        "mañana", "buenos", "días", "the", "bus", "is", "stuck", "again", "network", "so", "slow", "here",
    ]
    static let cyrillic = [
        "привет", "как", "дела", "да", "нет", "спасибо", "увидимся", "завтра", "на", "вокзале",
        "где", "ты", "опаздываю", "позвони", "мне", "когда", "будешь", "свободен", "фото", "вчера",
        "встреча", "перенесли", "на", "три", "кто", "заберёт", "детей", "сеть", "опять", "тормозит",
        "хорошо", "конечно", "сейчас", "буду", "через", "десять", "минут",
    ]
    static let cjk = [
        "你好", "谢谢", "明天见", "在车站", "你在哪里", "我迟到了", "有空打电话", "昨天的照片", "会议改到三点",
        "网络很慢", "好的", "没问题", "こんにちは", "ありがとう", "また明日", "駅で", "遅れます", "電話して",
        "写真", "会議", "三時に", "了解です", "안녕하세요", "감사합니다", "내일 봐요",
    ]
    static let emoji = ["😀", "😂", "👍", "🙏", "❤️", "🎉", "🔥", "😢", "🚌", "📷", "☕", "🤔", "👨‍👩‍👧", "🇰🇿", "✅"]

    static let firstNames = [
        "Anna", "Boris", "Dana", "Erik", "Fatima", "Giorgi", "Hana", "Ivan", "Jia", "Karim", "Lena",
        "Aigerim", "Nurlan", "Olga", "Pavel", "Qiu", "Rustam", "Saule", "Timur", "Umida", "Viktor",
        "Анна", "Борис", "Дарья", "Евгений", "Жанна", "Игорь", "Ксения", "Людмила", "Михаил", "Наталья",
        "王芳", "李伟", "张敏", "さくら", "太郎", "민준",
    ]
    static let lastNames = [
        "Abenova", "Berg", "Chen", "Dzhaksybekov", "Evans", "Fischer", "Garcia", "Huang", "Ivanova",
        "Kim", "Lopez", "Müller", "Nakamura", "Orlov", "Petrova", "Quinn", "Rossi", "Smirnov", "Tanaka",
        "Иванов", "Петрова", "Сидоров", "Кузнецова", "Смирнов",
    ]
    static let groupTitles = [
        "Family", "Work", "Football on Sunday", "Class of 2009", "Dacha", "Семья", "Работа", "Соседи",
        "Родительский чат 5Б", "家人", "同事", "旅行計画", "Trip to Almaty 🏔", "Book club 📚", "Startup",
    ]
    static let statuses = ["Available", "At work", "Busy", "На связи", "В дороге", "忙", "🏖 on vacation", "Only calls"]
}
