// Generated from the msgstr strings of PulseAudio's po/*.po catalogues (releases 0.9.15 to 17.0
// and the development branch), lowercased. One entry a concept: `concept|translation|...`, where
// a line that starts with `|` continues the entry above. A translation that means two concepts of
// one table in different languages is left out, so that structure decides instead.

/// The labels `pactl` prints, in every language PulseAudio ships.
extension PactlVocabulary {
    /// Block headings (`Sink #%u`, `Karte #%u`, `%u. nyelő`...): the words around the number, by
    /// kind (`other`: every block RouteKit skips, such as `Sink Input #%u` or `Module #%u`).
    static let headingData = #"""
        card|card|carta|carte|kaart|kart|karta|karte|kartica|kartice|kartu|kort|kortti|kártya|placa|plokštė
        |scheda|targeta|tarjeta|tarxeta|κάρτα|звукова карта|звуковая плата|карта|картица|картка|कार्ड|কার্ড
        |কাৰ্ড|કાર્ડ|କାର୍ଡ|కార్డు|ಕಾರ್ಡ್|ກາດ|ბარათი|カード|卡|카드
        other|afvoer input|afvoer-invoer|alıcı girişi|amostra|asiakas|bron-uitvoer|bronuitvoer|campione|client
        |cliente|cliënt|conducte d'entrada|cuplikan|eingabe-senke|entrada de depósito|entrada de destino
        |entrada del destino|entrada del sumidero|entrada do destino|entrada do sink|entrada do sumideiro
        |entrée de la destination|eșantion|forrás kimenet|ingresso per sink|ingresso sink|intrare receptor
        |izhod vira|izlaz izvora|i̇stemci|kaynak çıktısı|kaynak çıkışı|keluaran sumber|kildeoutput|kjelde-utdata
        |klien|kliens|klient|klientas|klijent|källutgång|luaran sumber|lähteen ulostulo|masukan muara|minta
        |modul|module|modulis|modulo|moduuli|moduł|modül|mostra|mottagaringång|muestra|mòdul|módulo
        |nielun sisääntulo|nyelő bemenet|näyte|odjemalec|odpływ wejścia|próbka|quell-ausgabe|quellen-ausgabe
        |rinktuvo įvestis|salida de fuente|salida de la fuente|sample|sampling|saída da fonte|saída da origem
        |saída de fonte|saída fonte|sink d'ingresso|sink input|sink-eingabe|sinkinput|sluk-inndata
        |sorgente d'uscita|sorgente output|sortida de la font|sortie de la source|source output|sursă de ieșire
        |ulaz slivnika|ulaz u slivnik|uscita per sorgente|uzorak|vhod ponora|vzorec|ziel-eingabe|échantillon
        |örnekleme|ėminys|šaltinio išvestis|źródło wyjścia|έξοδος πηγής|δείγμα|είσοδος δέκτη|ενότητα|πελάτης
        |ввод аудиоприёмника|вход аудиоприёмника|входен аудио приемник|вхідний канал приймача даних
        |выхад крыніцы|выход источника|відтворення джерела|излаз извора|изходен източник|клиент|клијент|кліент
        |клієнт|көз шығысы|модул|модуль|семпъл|сэмпл|уваход прыёмніка|узорак|улаз у сливник|фрагмент
        |қабылдағыш кірісі|үлгі|क्लाइंट|नमूना|मॉड्यूल|सिंक आगत|स्रोत निर्गत|অংশ|উৎসৰ নিৰ্গম|ক্লায়েন্ট|গ্ৰাহক
        |চানেকি|চিঙ্ক নিবেশ|মডিউল|সিংক ইনপুট|সোর্সের আউটপুট|স্যাম্পেল|ક્લાઇન્ટ|નમૂના|મોડ્યુલ|સિંક ઇનપુટ
        |સ્ત્રોત આઉટપુટ|ଉତ୍ସ ନିର୍ଗମ|ଏକକାଂଶ|ଗ୍ରାହକ|ନମୁନା|ସିଙ୍କ ନିବେଶ|கிளையன்ட்|தொகுதி|కక్షిదారి|మాడ్యూల్|మాదిరి
        |మూలము అవుట్పుట్|సింక్ ఇన్పుట్|ಆಕರ ಔಟ್‌ಪುಟ್‌|ಕ್ಲೈಂಟ್‌|ಘಟಕ|ನಮೂನೆ|ಸಿಂಕ್ ಇನ್‌ಪುಟ್‌|ແຊມເປີ|ໂມດູນ|ໄຄລແອນ
        |კლიენტი|クライアント|サンプル|シンク入力|ソース出力|モジュール|信宿输入|信源输入|信源输出|客户端|样本|模块|모듈|샘플|소스 출력|싱크 입력|클라이언트
        sink|afvoer|alıcı|conducte|depósito|destination|destino|mottagare|muara|nielu|nyelő|odpływ|ponor
        |receptor|rinktuvas|senke|sink|slivnik|sluk|sumidero|ziel|δέκτης|аудио приемник|аудиоприёмник|прыёмнік
        |сливник|қабылдағыш|सिंक|চিঙ্ক|সিংক|સિંક|ସିଙ୍କ|சுருக்கம்|సింక్|ಸಿಂಕ್|シンク|信宿|采集器|싱크
        source|bron|font|fonte|forrás|fuente|izvor|kaynak|kilde|kjelde|källa|lähde|orixe|quelle|sorgente|source
        |sumber|sursă|vir|šaltinis|źródło|πηγή|джерело|извор|източник|источник|крыніца|көз|स्रोत|উৎস|সোর্স
        |સ્ત્રોત|ଉତ୍ସ|மூலம்|మూలము|ಆಕರ|ソース|信源|소스|원천
        """#

    /// Field labels (`Name:`, `Beschreibung:`, `名称：`...) by concept.
    static let fieldData = #"""
        activePort|actieve poort|active port|aktiivinen portti|aktiv port|aktiver port|aktivna vrata
        |aktivni port|aktivni ulaz|aktivní port|aktyvus prievadas|aktywny port|aktív port|aktívny port
        |etkin bağlantı noktası|port actif|port actiu|port activ|port aktif|porta ativa|porta attiva
        |porto activo|puerto activo|pòrt actiu|ενεργή θύρα|активен порт|активни порт|активний порт|активный порт
        |актыўны порт|белсенді порт|सक्रिय पोर्ट|सक्रीय पोर्ट|সক্রিয় পোর্ট|সক্ৰিয় পোৰ্ট|ਸਰਗਰਮ ਪੋਰਟ|સક્રિય પોર્ટ
        |ସକ୍ରିୟ ସଂଯୋଗିକୀ|క్రియాశీల పోర్టు|ಸಕ್ರಿಯ ಸಂಪರ್ಕಸ್ಥಾನ|സജീവമായ പോര്‍ട്ട്|ພອດທີ່ກຳລັງໃຊ້ງານ|აქტიური პორტი
        |使用中连接端口|使用中連接埠|活动端口|活動中ポート|활성 포트
        activeProfile|actief profiel|actieve profiel|active profile|aktiivinen profiili|aktiv profil
        |aktive profil|aktives profil|aktivni profil|aktivní profil|aktyvus profilis|aktywny profil|aktív profil
        |aktívny profil|etkin profil|perfil actiu|perfil activo|perfil ativo|profil actif|profil activ
        |profil aktif|profilo attivo|ενεργή κατατομή|активен профил|активни профил|активний профіль
        |активный профиль|актыўны профіль|белсенді профиль|सक्रिय प्रोफाइल|सक्रीय संक्षिप्त माहिती
        |সক্রিয় প্রোফাইল|সক্ৰিয় পাৰ্শ্বৰূপ|ਸਰਗਰਮ ਪਰੋਫਾਈਲ|સક્રિય રૂપરેખા|ସକ୍ରିୟ ରୂପରେଖା|క్రియాశీల ప్రొఫైల్
        |ಸಕ್ರಿಯ ಪ್ರೊಫೈಲುಗಳು|സജീവമായ പ്രൊഫൈല്‍|ໂປຣໄຟລ໌ທີ່ກຳລັງໃຊ້ງານ|აქტიური პროფილი|启用的个人设置档|啟用的個人設定檔|有効なプロフィール
        |活动配置|활성 프로파일
        baseVolume|alap hangerő|base volume|base ধ্বনি|basis volume|basis-lautstärke|basisvolume|basvolym
        |bazinis garsis|glasnost basa|grundlydstyrke|grunn-lydstyrke|głośność podstawowa|izvorna glasnoća zvuka
        |osnovna glasnost|osnovna jačina zvuka|perusäänenvoimakkuus|temel ses|volum bàsic|volum de bază
        |volume base|volume dasar|volume de base|volumen base|βασική ένταση|базавая гучнасць|базова гучність
        |базова сила на звука|базовая громкость|гласност баса|негізгі дыбыс деңгейі|основна јачина звука
        |आधार आवाज़|আওয়াজের মূল মাত্রা|આધાર વોલ્યુમ|ଆଧାର ଭଲ୍ୟୁମ|அடிப்படை ஒலி|బేస్ ధ్వని|ಮೂಲ ಧ್ವನಿ ಪ್ರಮಾಣ
        |ລະດັບສຽງພື້ນຖານ|ბასის ბალანსი|ბასის ხმა|ベースボリューム|基础音量|基礎音量|기본 볼륨|기본 음량
        channelMap|channel map|csatornaleképzés|kanaal map|kanaalkaart|kanal adresleme|kanaldefinisjon
        |kanalenkaart|kanalkort|kanalmappning|kanalzuordnung|kanalų schema|kanavakartta|mapa da canle
        |mapa de canais|mapa de canales|mapa de canals|mapa de canles|mapa del canal|mapa dos canais|mapa kanala
        |mapa kanałów|mapa kanálov|mapa kanálů|mapiranje kanala|mappa dei canali|mappa di canali|peta kanal
        |plan des canaux|preslikava kanalov|schema canalelor|απεικόνιση καναλιού|каналдар жаймасы|карта каналів
        |карта на канализе|карта на каналите|мапа канала|схема каналаў|схема каналов|चैनल मानचित्र|চেনেল মাপ
        |চেনেল মেপ|চ্যানেল ম্যাপ|চ্যানেলের ম্যাপ|ચેનલ મેપ|ଚ୍ୟାନେଲ ମ୍ୟାପ|சேனல் வரைபடம்.|ప్రసారమార్గ మాప్
        |ప్రసారమార్గము మాప్|ಚಾನಲ್‌ ನಕ್ಷೆ|ແຜນຜັງຊ່ອງສຽງ|არხების რუკა|チャンネルマップ|声道映射|聲道對應表|聲道映射表|채널 맵|채널맵
        defaultSink|alapértelmezett nyelő|conducte per defecte|conducte per omissió|default sink
        |depósito por omissão|depósito predefinido|destination par défaut|destino padrão|destino por defecto
        |destino predeterminado|domyślny odpływ|förvald mottagare|muara baku|numatytasis rinktuvas|oletusnielu
        |podrazumevani slivnik|podrazumevano slivnik|predvolený cieľ|privzeti ponor|receptor implicit
        |sink predefinito|sink ມາດຕະຖານ|sortida àudio per defaut|standaard afvoer|standaardafvoer|standard sink
        |standard-ausgabe|standard-ziel|standardsluk|sumidero por defecto|varsayılan alıcı|výchozí cíl
        |zadani slivnik|öntanımlı alıcı|προεπιλεγμένος δέκτης|агаданы прыёмнік|аудиоприёмник по умолчанию
        |бастапқы қабылдағыш|подразумевани сливник|подразумевано сливник|стандартен аудио приемник
        |типовий приймач|तयशुदा सिंक|मुलभूत सिंक|मुलभूत सींक|অবিকল্পিত চিঙ্ক|ডিফল্ট সিংক|મૂળભૂત સિંક
        |ପୂର୍ବନିର୍ଦ୍ଧାରିତ ସିଙ୍କ|అప్రమేయ సింకు|ಪೂರ್ವನಿಯೋಜಿತ ಸಿಂಕ್|デフォルトシンク|預設 sink|默认音频入口|기본 싱크
        defaultSource|alapértelmezett forrás|default source|domyślne źródło|font per defaut|font per omissió
        |fonte padrão|fonte por omissão|fuente por defecto|förvald källa|numatytasis šaltinis|oletuslähde
        |origem predefinida|origen per defecte|orixe predeterminada|podrazumevani izvor|predvolený zdroj
        |privzeti vir|sorgente predefinita|source par défaut|standaard bron|standaardbron|standard kilde
        |standard-quelle|standardkjelde|sumber baku|sursă implicită|varsayılan kaynak|výchozí zdroj
        |zadani  izvor|zadani izvor|öntanımlı kaynak|προεπιλεγμένη πηγή|агаданая крыніца|бастапқы көз
        |источник по умолчанию|подразумевани извор|стандартен източник|типове джерело|तयशुदा स्रोत
        |मुलभूत स्त्रोत|मुलभूत स्रोत|অবিকল্পিত উৎস|ডিফল্ট সোর্স|મૂળભૂત સ્ત્રોત|ପୂର୍ବନିର୍ଦ୍ଧାରିତ ଉତ୍ସ
        |முன்னிருப்பு மூலங்கள்|అప్రమేయ మూలము|ಪೂರ್ವನಿಯೋಜಿತ ಆಕರ|ແຫຼ່ງກຳເນີດ (source) ມາດຕະຖານ|デフォルトソース|預設來源|默认信源
        |默认源|기본 소스
        description|aglam|aprašas|açıklama|beschreibung|beschrijving|beskrivelse|beskrivning|beskrywing
        |descrición|descriere|descripcion|descripció|descripción|description|descrizione|descrição|deskribapena
        |deskripsi|keterangan|kuvaus|leírás|opis|popis|priskribo|skildring|περιγραφή|апісанне|опис|описание
        |сипаттамасы|תיאור|वर्णन|विवरण|বিবরণ|বিৱৰণ|ਵੇਰਵਾ|વર્ણન|ବର୍ଣ୍ଣନା|விளக்கம்|వివరణ|ವಿವರಣೆ|വിവരണം|ຄຳອະທິບາຍ
        |ລາຍລະອຽດ|აღწერა|描述|説明|설명
        driver|ajuri|controlador|controladr|controlor|drivar|driver|drivrutin|eszközmeghajtó|gonilnik
        |illesztőprogram|ovladač|ovládač|pilote|pilòt|sterownik|stuurprogramma|sürücü|treiber|tvarkyklė
        |upravljački program|οδηγός|драйвер|драйвері|управљачки програм|ड्राइवर|চালক|ড্রাইভার|ડ્રાઇવર|ଡ୍ରାଇଭର
        |இயக்கி|డ్రైవర్|ಚಾಲಕ|ໄດຣເວີ|დრაივერი|ドライバー|驅動程式|驱动|驱动程序|드라이버
        flags|bandeiras|banderas|bayraklar|bendera|drapeaux|fanioane|flag|flagg|flaggor|flagi|flags|indicadores
        |jelzők|liput|marcas|marqueurs|modificadors|oznake|parâmetros|příznaky|sinalizadores|vlaggen|vėliavėlės
        |zastavice|σημαίες|жалаушалар|заставице|прапорці|флаги|флагове|флагі|फ्लैग|ফ্লেগ|ফ্ল্যাগ|ફ્લેગો|ଚିହ୍ନକ
        |கொடிகள்|ఫ్లాగ్‌లు|ಗುರುತುಗಳು|ແຟລັກ|ალმები|フラグ|旗标|旗標|标记|플래그
        formats|bestandssoorten|biçimler|formaatit|format|formatai|formate|formater|formati|formatos|formats
        |formaty|formátumok|formáty|vrste|vrste zapisa|μορφές|пішімдер|фарматы|формати|форматы|प्रारूप|ຮູບແບບ
        |ფორმატები|形式|格式|형식
        latency|cadência|delsa|forsinkelse|gecikme|kašnjenje|késleltetés|latence|latencia|latencija|latency
        |latens|latensi|latenssi|latenstid|latentie|latentnost|latenz|latenza|latență|latència|latência
        |opóźnienie|zakasnitev|λανθάνων χρόνος|задержка|закъснение|затрымка|кашњење|кідіріс|латентност
        |латентність|विलंबता|লেটেন্সি|ગુપ્તતા|ବିଲମ୍ବତା|క్రియాహీన|క్రియాహీనత|ಅಗೋಚರತೆ|ຄວາມໜ່ວງ|დაყოვნება|レイテンシー|延迟
        |延遲|待機時間|지연시간
        monitorOfSink|alıcı i̇zleme|avlyttingssluk|kontroler slivnika|moniteur de la destination
        |monitor al receptorului|monitor de sink|monitor del conducte|monitor del destino|monitor del sink
        |monitor do depósito|monitor do destino|monitor for sink|monitor odpływu|monitor of sink|monitor ponora
        |monitorafvoer|monitoreo del sumidero|monitorización do destino|nadgledanje slivnika|nadzor slivnika
        |nyelő megfigyelője|nyelő monitora|pemantau muara|pemantauan muara|rinktuvo stebėjimas|senke-monitor
        |sink 的監聽器|sink 的監視器|sink-monitor|sledování cíle|tarkkailtava nielu|ziel-monitor
        |övervakare för mottagare|οθόνη δέκτη|контролер сливника|монитор аудиоприёмника
        |монитор на аудио приемника|надзор сливника|ці манітор прыёмніка|является монитором аудиоприёмника
        |қабылдағыш мониторы|सिंक का मॉनिटर|চিঙ্কৰ মণিটৰ|সিংক নিরীক্ষণ|સિંકનું મોનિટર|ସିଙ୍କର ପ୍ରଦର୍ଶିକା
        |கணினி சுருங்கப்பட்டது|సింక్ యొక్క మానిటర్|ಸಿಂಕ್‌ನ ಮೇಲ್ವಿಚಾರಣೆ|ຕິດຕາມ sink|シンクのモニター|信宿的监视器|采集器的监视器
        |싱크 모니터
        monitorSource|avlyttingskjelde|font del monitor|fonte de monitoração|forrás megfigyelése
        |fuente del monitor|fuente que lo monitoriza|izvor kontrolora|izvor nadzora|i̇zleme kaynağı
        |kilde for monitor|moniteur de la source|monitor bron|monitor de fonte|monitor de origem
        |monitor della sorgente|monitor forrás|monitor source|monitorbron|monitorear fuente|monitorizar a orixe
        |nadgledanje izvora|orixe do monitor|pemantauan sumber|quelle monitor|quellen-monitor|source du moniteur
        |stebėjimo šaltinis|sumber pemantau|sursă monitor|tarkkailulähde|vir monitorja|zdroj sledování
        |övervakarkälla|źródło monitora|πηγή οθόνης|бақылау көзі|джерело спостереження|извор контролора
        |извор надзора|източник на монитора|маніторная крыніца|монитор источника|мониторный источник
        |मॉनिटर स्रोत|মণিটৰ উৎস|সোর্স নিরীক্ষণ|મોનિટર સ્ત્રોત|ପ୍ରଦର୍ଶିକା ଉତ୍ସ|మానిటర్ మూలము|ಮೇಲ್ವಿಚಾರಕ ಆಕರ
        |ແຫຼ່ງກຳເນີດການຕິດຕາມ|წყაროს მონიტორინგი|モニターソース|监视器信源|監聽器來源|監視器來源|모니터 소스|모니터 원천
        mute|bisu|dempa|demping|dezactivare sunet|isključen ton|izklop zvoka|mudo|muet|mute|muto|nutildyti
        |némítás|senyap|sessiz|silenciado|silenciat|silencio|sourdine|stlmenie|stumm|tyst|tystad|utišano
        |vaimennus|wyciszenie|ztlumení|σίγαση|абязгучана|абязгучаны|выключить|дыбысты өшіру|заглушаване
        |звук выключен|искључен тон|стан вимикання|утишано|मूक|নিঃশব্দ|মিউট|મૂંગુ|ମୁକ|நிறுத்தப்பட்டது|నిశ్శబ్దము
        |నిశ్శబ్ధము|ಮೂಕ|ປິດສຽງ|დადუმება|ミュート|静音|靜音|무음
        name|ad|adı|ime|isem|izena|naam|nama|name|namn|navn|naziv|nazwa|nimi|nom|nombre|nome|nomo|nume|název
        |názov|név|pavadinimas|όνομα|аты|име|имя|назва|назив|नाम|नाव|নাম|ਨਾਂ|નામ|ନାମ|பெயர்|నామము|ಹೆಸರು|പേരു്|ຊື່
        |სახელი|名前|名称|名稱|이름
        ownerModule|besitzer-modul|eigarmodul|ejermodul|modul lastnika|modul pemilik|modul proprietar
        |modul proprietari|modul vlastníka|module du propriétaire|module eigenaar|module propriétaire
        |module-eigenaaar|module-eigenaar|modulis savininkas|modulis-savininkas|modulo di appartenenza
        |modül sahibi|módulo de propietario|módulo dono|módulo dueño|módulo propietario|módulo proprietário
        |omistava moduuli|owner module|owner முறைமை|owner-modul|pripada modulu|propietari del mòdul
        |propietario do módulo|tulajdonos modul|vlasnik modula|vlastnícky modul|vlastněno modulem
        |właściciel modułu|ägarmodul|ενότητα κατόχου|власник модула|иелік ететін модуль|модул собственик
        |модуль власника|модуль-владелец|модуль-власник|модуль-уладальнік|припада модулу|родительский модуль
        |स्वामी मॉड्यूल|গৰাকীৰ অংশ|চিহ্নিত মডিউলের মালিকানাধীন|માલિક મોડ્યુલ|ନିଜ ଏକକାଂଶ|ମାଲିକ ଏକକାଂଶ
        |ମାଲିକର ଏକକାଂଶ|உரிமையாளர் தொகுதி|యజమాని మాడ్యూల్|ಮಾಲಿಕ ಘಟಕ|ໂມດູນເຈົ້າຂອງ|მფლობელი მოდული|オーナーモジュール|モジュール
        |使用者模組|所有者モジュール|所有者模块|拥有者模块|擁有者模組|用户模块|소유자 모듈
        partOfProfiles|bagian dari profil|część profilu|deel van profiel(en)|del af profil(er)|del av profil(ar)
        |del av profil(er)|del profila(-ov)|deo profila|dio profila|osa profiilista (profiileista)
        |part of profile(s)|parte a profilului (profilurilor)|parte de perfil/es|parte de perfil/perfis
        |parte dei profili|parte do perfil|parte do perfil(s)|parte do(s) perfil(es)
        |partida del o dels perfil(s)|partie du(des) profil(s)|profil(ler)in parçası|profilio(-ių) dalis
        |profilok része|součást profilu|teil der/des profil(s)|časť profilu(ov)|τμήμα των κατατομών
        |входит в профиль(и)|део профила|профиль(дер) бөлігі|част от профила(ите)|частина профілів
        |частка профілю(яў)|प्रोफाइल का हिस्सा|ເປັນສ່ວນໜຶ່ງຂອງໂປຣໄຟລ໌|პროფილების ნაწილი|プロファイルの一部|個人設定檔之部分
        |属于配置文件|프로파일 부분
        ports|bağlantı noktaları|poorten|port|portar|portas|porte|portit|porto|portok|portos|portovi|ports
        |porturi|porty|prievadai|puertos|pòrts|tiwwura|ulazi|vrata|θύρες|парты|порти|портове|портови|порттар
        |порты|पोर्ट|पोर्टस्|পোর্ট|পোৰ্ট|ਪੋਰਟ|પોર્ટો|ସଂଯୋଗିକୀଗୁଡ଼ିକ|పోర్టులు|ಸಂಪರ್ಕಸ್ಥಾನಗಳು|പോര്‍ട്ടുകള്‍|ພອດ
        |პორტები|ポート|端口|连接端口|連接埠|포트
        profiles|perfiles|perfils|perfis|perfís|prefis|profielen|profiilit|profil|profilar|profiler|profiles
        |profili|profiliai|profiller|profilok|profils|profily|κατατομές|профили|профильдер|профілі|פרופילים
        |प्रोफाइल|संक्षिप्त माहिती|পাৰ্শ্বৰূপ|প্রোফাইল|ਪਰੋਫਾਈਲ|રૂપરેખાઓ|ରୂପରେଖଗୁଡ଼ିକ|விவரக்குறிப்புகள்
        |ప్రోఫైల్సు|ಪ್ರೊಫೈಲುಗಳು|പ്രൊഫൈലുകള്‍|ໂປຣໄຟລ໌|პროფილები|プロフィール|个人设置档|個人設定檔|配置文件|프로파일
        properties|egenskaber|egenskaper|eigenschaften|eigenschappen|eigenskapar|lastnosti|ominaisuudet|properti
        |properties|propiedades|propietats|propriedades|proprietats|proprietà|proprietăți|propriétés|savybės
        |svojstva|tulajdonságok|vlastnosti|właściwości|özellikler|ιδιότητες|властивості|свойства|својства
        |уласцівасці|қасиеттері|गुण|গুণ|বিবিধ বৈশিষ্ট্য|ગુણધર્મો|ଗୁଣଧର୍ମ|பண்புகள்|లక్షణాలు|ಗುಣಗಳು|ຄຸນສົມບັດ
        |თვისებები|プロパティ|プロパティー|属性|屬性|속성
        sampleSpec|abtastwert-angabe|bemonsterings specificatie|bemonsteringsspecificatie
        |especifiación da mostra|especificaciones de la muestra|especificació de mostra|especificación da mostra
        |especificación de exemplo|especificación de la muestra|especificación de muestra
        |especificação da amostra|especificação da amostragem|mintavételi leírás|mintavételi meghatározás
        |näytemäärittely|odredba uzorka|określenie próbki|parametri uzorka|sample specification|sample-angabe
        |sample-spezifizierung|samplespecificatie|samplespecifikation|samplingsspecifikation
        |samplingsspesifikasjon|specifica di campionamento|specificația eșantionului|specificație eșantion
        |specifikace vzorku|specifikacija vzorca|specifikacije uzorka|spesifikasi cuplikan
        |spécification de l'échantillon|spécification de l’échantillon|tespecificació de mostra|určení vzorku
        |örnekleme tanımı|ėminio specifikacija|ęminio specifikacija|špecifikácia snímky|προδιαγραφή δείγματος
        |одредба узорка|параметри узорка|спецификация на семпъла|спецификация отсчётов|спецификация сэмпла
        |спецификация сэмплов|спецыфікацыя|спецыфікацыя сэмлаў|спецыфікацыя сэмплаў|частотна специфікація
        |үлгі сипаттамасы|नमूना विनिर्देश|চানেকি নিৰ্ধাৰণ|স্যাম্পেলের বৈশিষ্ট্য|નમૂના સ્પષ્ટીકરણ
        |ନମୁନା ବିଶେଷ ଲକ୍ଷଣ|மாதிரி குறிப்பிடுதல்|మాదిరి విశదీకరణ|మాదిరి విశదీకరణము|ನಮೂನೆ ವಿವರಣೆ|ຂໍ້ກຳນົດແຊມເປີ
        |სემპლის სპეციფიკაცია|サンプル仕様|取樣規格|采样规格|샘플 사양
        state|būsena|durum|estado|estat|keadaan|stan|stanje|stare|state|stato|status|stav|tila|tillstånd
        |tilstand|toestand|állapot|état|κατάσταση|күйі|состояние|стан|стање|състояние|अवस्था|অবস্থা|অৱস্থা
        |સ્થિતિ|ସ୍ଥିତି|நிலை|மாநிலம்|స్థితి|ಸ್ಥಿತಿ|ສະຖານະ|მდგომარეობა|状态|状態|狀態|상태
        volume|garsis|glasnnost|glasnost|glasnoća zvuka|hangerő|hlasitost|hlasitosť|jačina zvuka|lautstärke
        |lydstyrke|poziom głośności|ses|volum|volume|volumen|volym|äänenvoimakkuus|ένταση|громкость|гучнасць
        |гучність|дыбыс деңгейі|сила на звука|јачина звука|आवाज़|আওয়াজ|ধ্বনি মাত্ৰা|ধ্বনিৰ মাত্ৰা|વોલ્યુમ|ଭଲ୍ୟୁମ
        |ஒலி|ధ్వని|వాల్యూమ్|ಧ್ವನಿ ಪ್ರಮಾಣ|ລະດັບສຽງ|ხმა|ボリューム|볼륨|음량
        """#

    /// Labels inside the parentheses of port and profile lines (`type:`, `Priorität:`...) by concept.
    static let attributeData = #"""
        availabilityGroup|beschikbaarheid groep|dispoñibilidade de grupo|dostupnost grupe|elérhetőségi csoport
        |grup ketersediaan|grupa dostupnosti|grupa dostępności|grupo de disponibilidad|grupo de disponibilidade
        |gruppo disponibilità|grupul de disponibilitate|kullanılabilirlik grubu|prieinamumo grupė|saatavuusryhmä
        |skupina razpoložljivosti|tilgjengegruppe|tilgængelighedsgruppe|tillgänglighetsgrupp
        |verfügbarkeitsgruppe|ομάδα διαθεσιμότητας|група даступнасці|група доступности|група доступності
        |група за наличност|группа доступности|қолжетімділік тобы|उपलब्धता समूह|ກຸ່ມທີ່ສາມາດໃຊ້ໄດ້
        |წვდომადობის ჯგუფი|可用性群組|가용성 그룹
        available|available|beschikbaar|disponibil|disponibile|disponible|disponível|dispoñíbel|dostupno
        |dostupné|dostępne|elérhető|kullanılabilir|käytettävissä|na voljo|prieinama|tersedia|tilgjengeleg
        |tilgængelige|tillgängliga|verfügbar|διαθέσιμα|даступны|доступен|доступно|налични|қолжетімді|उपलब्ध
        |ມີໃຫ້ໃຊ້|可用|可用性
        latencyOffset|compensación de latencia|decalaj latență|deslocamento de latência
        |desprazamento de latencia|forsinkelse-forskydning|gecikme uzaklığı|késleltetési eltolás|latency offset
        |latensavstånd|latenssipoikkeama|latens­forskyving|latentie-offset|latenzversatz|mudança da latência
        |odmik zakasnitve|offset latenza|offset opóźnienia|ofset latensi|pomak latencije|pomeraj latentnosti
        |μετατόπιση υστέρησης|зсув латентності|кідіріс ығысуы|отместване на закъснението|померај латентности
        |смещение задержки|विलंबता ऑफसेट|ໄລຍະຊົດເຊີຍຄວາມໜ່ວງ|延遲偏移
        priority|pirmenybė|prednost|prioridad|prioridade|priorita|prioritas|prioritate|prioriteetti|prioriteit
        |prioritet|prioriteta|priority|priorità|prioritás|priorität|priorytet|važnost|öncelik|προτεραιότητα
        |басымдылығы|басымдылық|важност|приоритет|прыярытэт|пріоритет|пріоритетність|प्राथमिकता|ບຸລິມະສິດ
        |პრიორიტეტი|优先级|優先序|순위
        sinks|alıcılar|ciele|cíle|destino|destinos|mottagare|muara|nielut|nyelők|odpływy|pias|ponori|receptoare
        |rinktuvų|sink|sinks|slivnici|slivnika|sluk|sumideros|ziele|συλλέκτες|аудио приемници|аудиоприёмников
        |приймачів|прыёмнікаў|сливника|қабылдағыштар|सिंक|信宿
        sources|bronnen|fontes|források|fuentes|izvora|izvori|kaynaklar|kilder|kjelder|källor|lähteet|orixes
        |quellen|sorgenti|sources|sumber|surse|viri|zdroje|šaltinių|źródła|πηγές|джерел|извора|източници
        |источников|крыніц|көздер|स्रोत|來源|信源
        type|tip|tipas|tipe|tipo|typ|type|tyyppi|típus|tür|vrsta|τύπος|вид|врста|тип|тып|түрі|प्रकार|ປະເພດ|ტიპი
        |類型|유형
        """#
}
